// A person's rejection of a whole proposal is steering, not a failed attempt (contracts.md,
// "Rejections"): the coder proposes again in the same iteration, from the files on disk, with the
// person's words; no validation runs and no iteration is used. After a few rejections in a row within
// one iteration the person is asked what to do (ESCALATE), so a run never loops silently.

import type { ErrorContext, FileDecision } from '../model';
import { describeRejectedDiffs } from './diff-decisions';
import { attemptWithSummary } from './steering';
import type { RunContext, RunEvent } from './run-context';

/** Proposals the person may reject in a row within one iteration; the last of them asks the person. */
export const REJECTIONS_IN_A_ROW_LIMIT = 3;

/** Whether, after this rejection, the coder may propose again without asking the person. */
export function proposalLeftAfterRejection(context: Pick<RunContext, 'rejectionsInARow'>): boolean {
  return (context.rejectionsInARow ?? 0) + 1 < REJECTIONS_IN_A_ROW_LIMIT;
}

/**
 * The context after the person rejected the whole proposal: the attempt is recorded, nothing is
 * applied, and the coder's next error context carries the person's words ahead of what the last
 * validation said (kept, so the failures the coder was fixing are not forgotten). `feedback` is
 * exactly what the person said, or empty: the machine never invents a reason.
 */
export function rejectedProposal(
  context: RunContext,
  feedback: string,
  files?: readonly FileDecision[],
): Pick<RunContext, 'attempts' | 'approvedEdits' | 'rejections' | 'guidance' | 'errorContext' | 'rejectionsInARow'> {
  const said = feedback.trim();
  const rejections = describeRejectedDiffs(context.codeDiffs, files?.length ? files : undefined);
  const line = said
    ? `The person rejected all of your proposed changes (nothing was applied). Their feedback: ${said}`
    : 'The person rejected all of your proposed changes (nothing was applied) without giving a reason.';
  const before: ErrorContext | null = context.errorContext;
  return {
    attempts: [...(context.attempts ?? []), attemptWithSummary(context, 'rejected', context.codeDiffs, said || null)],
    approvedEdits: [],
    rejections,
    guidance: said || null,
    rejectionsInARow: (context.rejectionsInARow ?? 0) + 1,
    errorContext: {
      iteration: context.iterationCount,
      text: before ? `${line}\n\n${before.text}` : line,
      newBuildErrors: before?.newBuildErrors ?? [],
      newTestFailures: before?.newTestFailures ?? [],
      preExistingFailures: before?.preExistingFailures ?? [],
      rejections: rejections ?? undefined,
      ...(said ? { guidance: said } : {}),
    },
  };
}

/** What the hand-off says when the person rejected proposal after proposal within one iteration. */
export function rejectionsInARowReason(context: Pick<RunContext, 'rejectionsInARow' | 'iterationCount' | 'maxIterations'>): string {
  return (
    `The person rejected ${context.rejectionsInARow ?? 0} proposals in a row in iteration ${context.iterationCount} of ` +
    `${context.maxIterations} (rejections use no iteration); the coder waits for guidance, or stop.`
  );
}

/**
 * The whole proposal rejected: the coder proposes again in the same iteration with the person's
 * words (no validation, no iteration used) — until a few rejections in a row, then a person is asked.
 */
export function rejected<E extends RunEvent>(feedback: (args: { event: E }) => { feedback: string; files?: FileDecision[] }) {
  return [
    { guard: 'proposalLeftAfterRejection', target: 'CODE', actions: { type: 'rejectDiffs', params: feedback } },
    { target: 'ESCALATE', actions: { type: 'rejectDiffs', params: feedback } },
  ] as const;
}
