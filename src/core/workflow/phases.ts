// Running a plan's phases one at a time (contracts.md, Phases). The scheduler is the question
// "which phases are ready" (phase-graph.ts) kept apart from "run this one": a phase runs the usual
// CODE → VALIDATE → DECIDE loop with its own iteration budget, and when its validation passes the
// next ready phase starts with a fresh loop that sees its own steps and the completed phases'
// hand-offs. A plan with steps is one phase. Each validation builds and tests every file the run
// has touched, so the last phase's is the final validation of the whole result.

import type { ExecutionPlan, PhaseBrief, PhaseState, PlanPhase } from '../model';
import { readyPhaseIds } from '../phase-graph';
import type { AttemptRecord, RunContext } from './run-context';
import { iterationsOf } from './phase-states';
import type { PhaseRun } from './phase-states';
import { appliedSoFar } from './steering';

/** The id of the one phase of a plan given as steps. */
export const SINGLE_PHASE_ID = 'main';
const MAX_HANDOFF_CHARS = 2_000;

/** The phases of a plan: its own, or the whole plan as one. */
export function planPhases(plan: ExecutionPlan): PlanPhase[] {
  if (plan.phases?.length) return plan.phases;
  return [
    {
      id: SINGLE_PHASE_ID,
      name: 'The plan',
      description: plan.summary,
      dependencies: [],
      steps: plan.steps,
      affectedFiles: plan.affectedFiles,
    },
  ];
}

/** The phases of the context's plan that may start now, in plan order. */
export function readyPhases(context: RunContext): PlanPhase[] {
  const phases = context.plan ? planPhases(context.plan) : [];
  const ready = new Set(readyPhaseIds(phases, statusesOf(context.phases ?? [])));
  return phases.filter((phase) => ready.has(phase.id));
}

export function runningPhase(context: RunContext): PhaseRun | undefined {
  return context.phases?.find((phase) => phase.status === 'running');
}

/** The approved plan's phases, all pending, and the first ready one started at `iteration`. */
export function beginPhases(context: RunContext, iteration: number, now: string): Pick<RunContext, 'phases' | 'maxIterations'> {
  const phases: PhaseRun[] = (context.plan ? planPhases(context.plan) : []).map((phase) => ({
    phaseId: phase.id,
    name: phase.name,
    status: 'pending',
    iterationsRun: 0,
    maxIterations: phaseBudget(context, phase),
    startedAt: null,
    endedAt: null,
    firstIteration: null,
  }));
  return startReady({ ...context, phases }, iteration, now);
}

/** Whether another phase is ready once the running one is complete. */
export function nextPhaseAfterThis(context: RunContext): boolean {
  const running = runningPhase(context);
  if (!running || !context.phases) return false;
  const phases = context.phases.map((phase) => (phase === running ? { ...phase, status: 'complete' as const } : phase));
  return readyPhases({ ...context, phases }).length > 0;
}

/** The running phase complete (its validation passed), with its hand-off. */
export function completePhase(context: RunContext, now: string): Pick<RunContext, 'phases'> {
  const running = runningPhase(context);
  if (!running || !context.phases) return { phases: context.phases };
  // Once complete, the phase runs nowhere: its worktree is no longer shown.
  const { worktree: _worktree, ...ran } = running;
  const done: PhaseRun = {
    ...ran,
    status: 'complete',
    iterationsRun: iterationsOf(running, context.iterationCount),
    maxIterations: running.firstIteration === null ? running.maxIterations : context.maxIterations - running.firstIteration + 1,
    endedAt: now,
    handoff: handoffOf(context, running),
  };
  return { phases: context.phases.map((phase) => (phase === running ? done : phase)) };
}

/** The running phase complete and the next ready one started, in the run's next iteration, with nothing of the last one's errors or steering. */
export function advancePhase(
  context: RunContext,
  now: string,
): Pick<RunContext, 'phases' | 'maxIterations' | 'iterationCount' | 'errorContext' | 'rejections' | 'guidance' | 'rejectionsInARow'> {
  const iteration = context.iterationCount + 1;
  const completed = { ...context, ...completePhase(context, now) };
  return {
    ...startReady(completed, iteration, now),
    iterationCount: iteration,
    errorContext: null,
    rejections: null,
    guidance: null,
    rejectionsInARow: 0,
  };
}

/** What the CODE step works from: the running phase's part of the plan, its brief, and only its own earlier attempts. */
export function phaseWork(context: RunContext): {
  plan: ExecutionPlan;
  applied: Array<Pick<AttemptRecord, 'iteration' | 'files' | 'diff'>>;
  phase?: PhaseBrief;
  parallel?: { plan: ExecutionPlan; limit: number };
} {
  const plan = context.plan as ExecutionPlan;
  const running = runningPhase(context);
  if (!plan.phases?.length || !running || !context.phases) return { plan, applied: appliedSoFar(context) };
  const own = plan.phases.find((phase) => phase.id === running.phaseId) as PlanPhase;
  const completed = context.phases
    .filter((phase) => phase.status === 'complete')
    .map((phase) => ({ id: phase.phaseId, name: phase.name, handoff: phase.handoff ?? '' }));
  const since = running.firstIteration ?? 0;
  return {
    plan: {
      summary: plan.summary,
      steps: own.steps,
      affectedFiles: own.affectedFiles,
      complexity: plan.complexity,
      ...(plan.knownFailures ? { knownFailures: plan.knownFailures } : {}),
    },
    applied: appliedSoFar(context).filter((attempt) => attempt.iteration >= since),
    phase: { id: own.id, name: own.name, description: own.description, index: completed.length + 1, count: plan.phases.length, completed },
    ...(parallelStart(context, running) ? { parallel: { plan, limit: context.workflow.parallel as number } } : {}),
  };
}

/**
 * With --parallel N (N > 1), the first CODE of a plan of several phases runs them all at once
 * (parallel-phases.ts); a later CODE (a failed final validation, a person's guidance) is an
 * ordinary coder's iteration on the whole result.
 */
function parallelStart(context: RunContext, running: PhaseRun): boolean {
  const phases = context.phases ?? [];
  return (
    (context.workflow.parallel ?? 1) > 1 &&
    phases.length > 1 &&
    running.firstIteration === context.iterationCount &&
    context.errorContext === null &&
    !context.guidance &&
    phases.every((phase) => phase === running || phase.status === 'pending')
  );
}

function startReady(context: RunContext, iteration: number, now: string): Pick<RunContext, 'phases' | 'maxIterations'> {
  const next = readyPhases(context)[0];
  const phases = context.phases ?? [];
  if (!next) return { phases, maxIterations: context.maxIterations };
  const started = phases.map((phase) =>
    phase.phaseId === next.id
      ? { ...phase, status: 'running' as const, startedAt: now, firstIteration: iteration, iterationsRun: 1, ...worktreeOf(context) }
      : phase,
  );
  const budget = started.find((phase) => phase.phaseId === next.id)?.maxIterations ?? context.workflow.maxIterations;
  // The machine's DECIDE compares the run's iteration with this: the phase's last iteration.
  return { phases: started, maxIterations: iteration + budget - 1 };
}

/** A phase run in a worktree of its own (its plan given by the run that planned it) shows where. */
function worktreeOf(context: RunContext): { worktree?: string } {
  return context.workflow.givenPlan ? { worktree: context.workflow.workspaceRoot } : {};
}

/** The phase's own budget, never more than the run's per-phase limit (--max-iterations). */
function phaseBudget(context: RunContext, phase: PlanPhase): number {
  const limit = context.workflow.maxIterations;
  return Math.min(limit, phase.maxIterations ?? limit);
}

/** What the phase did: the coder's last summary and the files its applied attempts changed. */
function handoffOf(context: RunContext, phase: PhaseRun): string {
  const since = phase.firstIteration ?? 0;
  const files = [
    ...new Set((context.attempts ?? []).filter((a) => a.outcome === 'applied' && a.iteration >= since).flatMap((a) => a.files)),
  ];
  const summary = context.coderSummary.trim() || '(the coder gave no summary)';
  const text = `${summary}\nFiles changed: ${files.length ? files.join(', ') : 'none'}`;
  return text.length > MAX_HANDOFF_CHARS ? `${text.slice(0, MAX_HANDOFF_CHARS)}…` : text;
}

function statusesOf(phases: readonly PhaseRun[]): Map<string, PhaseState['status']> {
  return new Map(phases.map((phase) => [phase.phaseId, phase.status]));
}
