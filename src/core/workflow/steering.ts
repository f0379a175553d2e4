// The steering trail: how the person steered the run, kept in the state so the panel can show it
// after the fact. Each plan version with the feedback that made it (and whether it came back
// unchanged), each proposal with the coder's own summary, and every piece of guidance given at an
// escalation (which the next iteration would otherwise forget once the coder has read it).

import type { ErrorContext, ExecutionPlan, FileEdit } from '../model';
import { attemptOf } from './handoff';
import { planChanges } from './plan-changes';
import { planUnchangedAfterFeedback } from './plan-unchanged';
import type { ApprovalGate, AttemptRecord, GuidanceGiven, PlanVersion, RunContext } from './run-context';

/** The planner's new plan: whether it is the one the person rejected, unchanged, and the versions with it. */
export function newPlanVersion(
  context: RunContext,
  next: { spec: string; plan: ExecutionPlan },
): Pick<RunContext, 'planUnchangedAfterFeedback' | 'planVersions'> {
  const unchanged = planUnchangedAfterFeedback({ spec: context.spec, plan: context.plan, feedback: context.planFeedback }, next);
  return {
    planUnchangedAfterFeedback: unchanged,
    planVersions: withPlanVersion(context, next.plan, { feedback: context.planFeedback, unchanged, by: 'planner' }),
  };
}

/** The versions after the person approved the plan: one more when they edited it. */
export function editedPlanVersions(context: RunContext, edited: ExecutionPlan | undefined): PlanVersion[] | undefined {
  return edited
    ? withPlanVersion(context, edited, { feedback: 'Edited by the person at the plan gate', unchanged: false, by: 'person' })
    : context.planVersions;
}

function withPlanVersion(
  context: RunContext,
  plan: ExecutionPlan,
  how: { feedback: string | null; unchanged: boolean; by: PlanVersion['by'] },
): PlanVersion[] {
  const versions = context.planVersions ?? [];
  return [
    ...versions,
    {
      version: versions.length + 1,
      summary: plan.summary,
      stepCount: plan.steps.length,
      feedback: how.feedback,
      unchanged: how.unchanged,
      by: how.by,
      ...(versions.length > 0 ? { changes: planChanges(context.plan, plan) } : {}),
    },
  ];
}

/** The guidance given so far, plus this one (blank guidance is not kept). */
export function withGuidance(context: RunContext, iteration: number, guidance: string): GuidanceGiven[] {
  const given = context.guidanceGiven ?? [];
  return guidance.trim() ? [...given, { iteration, guidance: guidance.trim() }] : given;
}

/** The proposals applied so far (files and capped diff): a retry's coder is told them first. */
export function appliedSoFar(context: RunContext): Array<Pick<AttemptRecord, 'iteration' | 'files' | 'diff'>> {
  return (context.attempts ?? [])
    .filter((a) => a.outcome === 'applied' && a.files.length > 0)
    .map(({ iteration, files, diff }) => ({ iteration, files, diff }));
}

/** A decided proposal, with the coder's summary of it when it gave one. */
export function attemptWithSummary(
  context: RunContext,
  outcome: AttemptRecord['outcome'],
  edits: readonly FileEdit[],
  feedback?: string | null,
): AttemptRecord {
  const attempt = attemptOf(context.iterationCount, outcome, edits, feedback);
  return context.coderSummary.trim() ? { ...attempt, summary: context.coderSummary.trim() } : attempt;
}

/** The gates reached so far, plus this one (each once). Undefined stays undefined: a run persisted before did not keep them. */
export function withGateReached(context: RunContext, gate: ApprovalGate): ApprovalGate[] | undefined {
  const reached = context.gatesReached;
  return reached === undefined || reached.includes(gate) ? reached : [...reached, gate];
}

/**
 * The coder hears about the person's rejections and guidance through the next error context.
 * The validate step is expected to put them there; the machine makes sure of it, so a step that
 * forgets cannot silently drop what the person said.
 */
export function withPersonsWords(errorContext: ErrorContext | null, context: RunContext): ErrorContext | null {
  if (!errorContext) return null;
  return {
    ...errorContext,
    rejections: errorContext.rejections ?? context.rejections ?? undefined,
    guidance: errorContext.guidance ?? context.guidance ?? undefined,
  };
}
