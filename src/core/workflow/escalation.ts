// Why a run escalates to a person. A rejected proposal uses no iteration (rejection.ts has the
// limit of rejections in a row that asks the person instead).

import type { HelpNode, RunContext, RunEvent } from './run-context';
import { rejectionsInARowReason } from './rejection';
import { withBudget } from './budget';
import type { RunBudget } from './budget';
import { withGuidance } from './steering';

type ApproveFiles = Extract<RunEvent, { type: 'APPROVE' }>['files'];

/** Whether the coder may propose once more within the iteration budget (a proposal over an edit conflict uses one). */
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
  if ((context.rejectionsInARow ?? 0) > 0 && context.attempts?.at(-1)?.outcome === 'rejected') return rejectionsInARowReason(context);
  if (context.errorContext?.source === 'review' && context.review) {
    return `The code review still fails (score ${context.review.score}/10) after ${context.iterationCount} of ${context.maxIterations} iterations.`;
  }
  return `Validation still fails after ${context.iterationCount} of ${context.maxIterations} iterations.`;
}

/** The person's reasons when they rejected every proposed file one by one; empty when they gave none (never made up). */
export function rejectionReasons(files: ApproveFiles): string {
  const reasons = (files ?? []).map((f) => f.reason?.trim()).filter((r): r is string => Boolean(r));
  return reasons.join('; ');
}

/** A request for help leaves the working state (its step is stopped) for ESCALATE: hand-off, then a person. */
export function helpRequestedAt(from: HelpNode) {
  type HelpEvent = { event: Extract<RunEvent, { type: 'REQUEST_HELP' }> };
  return {
    target: 'ESCALATE',
    actions: [
      { type: 'addStoppedStepUsage', params: ({ event }: HelpEvent) => ({ usage: event.usage }) },
      { type: 'assignHelpRequest', params: ({ event }: HelpEvent) => ({ reason: event.reason, from, budget: event.budget }) },
    ],
  } as const;
}

/** At least one more iteration, whatever was asked: NaN or a fraction must not stall the run. */
export function extraIterations(requested: number): number {
  return Number.isFinite(requested) ? Math.max(1, Math.floor(requested)) : 1;
}

/** WAIT_HUMAN's CONTINUE to the coder: more iterations (at least one), the person's guidance, a raised budget. */
export function continuedWithGuidance(
  context: RunContext,
  params: { guidance: string; additionalIterations: number; budget?: RunBudget },
): Partial<RunContext> {
  return {
    workflow: withBudget(context.workflow, params.budget),
    maxIterations: context.maxIterations + extraIterations(params.additionalIterations),
    iterationCount: context.iterationCount + 1,
    guidance: params.guidance,
    guidanceGiven: withGuidance(context, context.iterationCount + 1, params.guidance),
    rejections: null,
    rejectionsInARow: 0,
    helpRequest: null,
    phasesAtStop: null,
    errorContext: context.errorContext ? { ...context.errorContext, guidance: params.guidance } : null,
  };
}

/** Planning asked for help: plan again with the person's answer. No coding attempt was spent. */
export function replannedWithGuidance(context: RunContext, params: { guidance: string; budget?: RunBudget }): Partial<RunContext> {
  return {
    workflow: withBudget(context.workflow, params.budget),
    planFeedback: `You asked for help: ${context.helpRequest?.reason ?? '(no reason given)'}\nThe person answered: ${params.guidance}`,
    guidanceGiven: withGuidance(context, context.iterationCount, params.guidance),
    helpRequest: null,
  };
}
