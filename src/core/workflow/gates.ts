// The approval gates' rules (WAIT_PLAN_APPROVAL, WAIT_DIFF_APPROVAL): when the diff gate stops the
// run for the person, and what the run keeps when the person accepts all or part of a proposal.
// A rejected proposal is rejection.ts's.

import type { FileDecision } from '../model';
import { applyFileDecisions, describeRejectedDiffs } from './diff-decisions';
import { attemptWithSummary } from './steering';
import type { RunContext } from './run-context';

/** Whether the coder's proposal of `editCount` edits waits at WAIT_DIFF_APPROVAL. */
export function diffsNeedApproval(context: RunContext, editCount: number): boolean {
  if (editCount === 0) return false;
  const policy = context.workflow.approval.diffs;
  // "first": until the person accepted a proposal (a rejected one is not the first accepted).
  return (
    policy === 'always' ||
    (policy === 'first' &&
      (context.iterationCount <= 1 || (context.attempts !== undefined && !context.attempts.some((a) => a.outcome === 'applied'))))
  );
}

/** The whole proposal goes to validation (no gate, or a plain APPROVE). */
export function allDiffsAccepted(context: RunContext): Partial<RunContext> {
  return {
    approvedEdits: context.codeDiffs,
    rejections: null,
    rejectionsInARow: 0,
    attempts: [...(context.attempts ?? []), attemptWithSummary(context, 'applied', context.codeDiffs)],
  };
}

/** The files and hunks the person accepted go to validation; the rest is told to the coder. */
export function someDiffsAccepted(context: RunContext, files: FileDecision[] | undefined): Partial<RunContext> {
  const approvedEdits = applyFileDecisions(context.codeDiffs, files);
  // A plain APPROVE has no per-file verdicts: nothing was rejected. (`undefined` would mean
  // "everything rejected" to describeRejectedDiffs.)
  const rejections = describeRejectedDiffs(context.codeDiffs, files ?? []);
  return {
    approvedEdits,
    rejections,
    rejectionsInARow: 0,
    attempts: [...(context.attempts ?? []), attemptWithSummary(context, 'applied', approvedEdits, rejections)],
  };
}
