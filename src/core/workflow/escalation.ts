// Why a run escalates to a person, and the rule that makes rejected diffs count: each proposal the
// person rejects uses an iteration, as a failed validation does, so rejecting every diff reaches
// the iteration budget and escalates instead of asking the coder for ever.

import type { RunContext, RunEvent } from './run-context';

type ApproveFiles = Extract<RunEvent, { type: 'APPROVE' }>['files'];

/** A rejected proposal may be followed by another only while iterations are left. */
export function iterationLeft(context: Pick<RunContext, 'iterationCount' | 'maxIterations'>): boolean {
  return context.iterationCount < context.maxIterations;
}

/** What the hand-off says the run stopped for. */
export function escalationReason(context: RunContext): string {
  const help = context.helpRequest;
  if (help?.budget) return `${help.budget.message} The run stopped during ${help.from}; raise the budget to continue, or stop.`;
  if (help) return `Help was requested during ${help.from}: ${help.reason}`;
  if (context.editConflict?.length) {
    return `${context.editConflict.join(', ')} changed on disk while the proposal was under review, so it was not applied (the person's version is kept), and no iteration is left to propose again.`;
  }
  if (context.attempts?.at(-1)?.outcome === 'rejected' && context.attempts.at(-1)?.iteration === context.iterationCount) {
    return `The person rejected the proposed changes of iteration ${context.iterationCount} of ${context.maxIterations}; no iteration is left (each rejected proposal uses one).`;
  }
  return `Validation still fails after ${context.iterationCount} of ${context.maxIterations} iterations.`;
}

/** The person's reasons when they rejected every proposed file one by one. */
export function rejectionReasons(files: ApproveFiles): string {
  const reasons = (files ?? []).map((f) => f.reason).filter((r): r is string => Boolean(r));
  return reasons.length ? reasons.join('; ') : 'The person rejected every proposed file.';
}
