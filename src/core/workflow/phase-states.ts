// The phases of a run as it keeps them and as CodingState shows them (the scheduler is phases.ts).

import type { PhaseState, WorkflowNode } from '../model';
import type { PhaseCounts } from '../trace';

/** A phase as the run keeps it: its public state and the run's iteration it started at. */
export interface PhaseRun extends PhaseState {
  firstIteration: number | null;
}

/** What of a run's context the phases are shown from. */
interface PhasedRun {
  phases?: PhaseRun[];
  iterationCount: number;
  maxIterations: number;
  error: string | null;
}

/** The phases as CodingState shows them at a node: the running one's iterations so far; at a failed or stopped end, it is in error. */
export function phaseStates(context: PhasedRun, node: WorkflowNode): PhaseState[] | undefined {
  if (!context.phases?.length) return undefined;
  return context.phases.map((phase) => {
    const { firstIteration, ...shown } = phase;
    if (phase.status !== 'running' || firstIteration === null) return shown;
    const running: PhaseState = {
      ...shown,
      iterationsRun: iterationsOf(phase, context.iterationCount),
      maxIterations: context.maxIterations - firstIteration + 1,
    };
    if (node === 'FAILED') return { ...running, status: 'error', error: context.error ?? 'The run failed.' };
    if (node === 'CANCELLED') return { ...running, status: 'error', error: 'The run was stopped before this phase was complete.' };
    return running;
  });
}

export function iterationsOf(phase: PhaseRun, iterationCount: number): number {
  return phase.firstIteration === null ? phase.iterationsRun : Math.max(1, iterationCount - phase.firstIteration + 1);
}

/** How many phases are in each status (`ironbees runs`). */
export function phaseCounts(phases: readonly PhaseState[]): PhaseCounts {
  const counts: PhaseCounts = { total: phases.length, pending: 0, running: 0, complete: 0, error: 0 };
  for (const phase of phases) counts[phase.status] += 1;
  return counts;
}
