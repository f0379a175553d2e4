// The approval gate for tools with side effects outside the staged overlay (MCP tools that write),
// derived from the run's approval setting. Such a call changes the world the way an applied diff
// does, so it follows the diff policy: `never` (the person chose not to review changes) runs them;
// `always` and `first` ask each time, because a call, unlike a diff, cannot be reviewed afterwards.

import type { WorkflowContext } from '../model';
import type { ToolApprovalGate, ToolApprovalRequest, ToolApprovalVerdict } from '../tools/types';

/** Asks a person about one call (the CLI's prompt, the editor's dialog); `runId` says which run wants it. */
export type ToolApprover = (request: ToolApprovalRequest & { runId: string }) => Promise<ToolApprovalVerdict>;

export function toolApprovalPolicy(workflow: WorkflowContext): ToolApprovalGate['policy'] {
  return workflow.approval.diffs === 'never' ? 'never' : 'always';
}

/** Without an approver, `always` means every such call is refused with a message the model can act on. */
export function toolApprovalGate(workflow: WorkflowContext, runId: string, approver?: ToolApprover): ToolApprovalGate {
  const policy = toolApprovalPolicy(workflow);
  if (policy === 'never' || !approver) return { policy };
  return { policy, ask: (request) => approver({ ...request, runId }) };
}
