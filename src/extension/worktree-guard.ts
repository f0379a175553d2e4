// A run that worked in a git worktree never wrote the working tree: resuming or reverting it here
// would write the person's files from its journal. The CLI does both in its worktree.

import { OrchestratorError } from '../core/errors';
import { branchFor, worktreeRunRecord } from '../core/workflow/worktree-runs';

/** Throws for a worktree run, saying how the CLI resumes or reverts it. */
export function refuseWorktreeRun(workspaceRoot: string, runId: string, what: 'resume' | 'revert'): void {
  if (!worktreeRunRecord(workspaceRoot, runId)) return;
  const how =
    what === 'resume'
      ? `\`ironbees resume ${runId}\` goes on in its worktree`
      : `its work is only on branch ${branchFor(runId)}: \`ironbees revert ${runId}\` deletes it`;
  throw new OrchestratorError(`Run ${runId} worked in a git worktree, not in your working tree; ${how}.`);
}
