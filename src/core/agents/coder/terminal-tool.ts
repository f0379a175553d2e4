// The coder's terminal tool, submit_changes {summary}: the edits are whatever the staged overlay
// holds when it is called; the summary is for the person reviewing the diffs.

import { z } from 'zod';
import { terminalTool } from '../unit';

export const submitChangesInput = z.object({
  summary: z.string().min(1).describe('What was changed and why, for the person reviewing the diffs'),
});
export type SubmitChangesInput = z.infer<typeof submitChangesInput>;

export const SUBMIT_CHANGES_TOOL_NAME = 'submit_changes';

export const submitChangesTool = terminalTool<SubmitChangesInput>(
  SUBMIT_CHANGES_TOOL_NAME,
  'Submit your staged changes for review, build and tests, with a summary. This ends your turn; call it once, when every edit is made.',
  submitChangesInput,
  'Changes received.',
);
