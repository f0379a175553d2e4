// Asks the person before the agent runs a tool with side effects outside the staged overlay (an
// MCP tool that writes): such a call cannot be reviewed afterwards like a diff. A modal dialog,
// because the run cannot go on without the answer; dismissing it refuses the call.

import * as vscode from 'vscode';
import type { ToolApprover } from '../core/workflow/tool-approval';

const MAX_INPUT_SHOWN = 2000;

export const askToolApprovalInEditor: ToolApprover = async (request) => {
  const input = JSON.stringify(request.input, null, 2) ?? '';
  const shown = input.length > MAX_INPUT_SHOWN ? `${input.slice(0, MAX_INPUT_SHOWN)}\n…` : input;
  const choice = await vscode.window.showWarningMessage(
    `Ironbees: the agent wants to run "${request.tool}" (run ${request.runId}).`,
    { modal: true, detail: `${request.description}\n\n${shown}` },
    'Allow',
  );
  return choice === 'Allow' ? { approved: true } : { approved: false, reason: 'The person refused this call in VS Code.' };
};
