// Per-phase progress on stderr for a plan in phases: a line when a phase starts, completes or
// stops, and the phases of the plan as a person approves it. Pure, like the rest of render/.

import type { Colors } from 'picocolors/types';
import type { CodingState, ExecutionPlan, PhaseState } from '../../core/model';
import { STOPPED_WITH_THE_RUN } from '../../core/workflow/parallel-phases';

/** The lines for the phases that changed between two states; none for a plan in one phase. */
export function describePhaseChanges(previous: CodingState | null, next: CodingState, colors: Colors): string[] {
  const phases = next.phases ?? [];
  if (!next.plan?.phases?.length || phases.length === 0) return [];
  const before = new Map((previous?.phases ?? []).map((phase) => [phase.phaseId, phase.status]));
  const lines: string[] = [];
  for (const phase of phases) {
    if (before.get(phase.phaseId) === phase.status) continue;
    if (phase.status === 'complete') {
      lines.push(colors.green(`phase ${phase.name}: complete after ${phase.iterationsRun} iteration(s)`));
    } else if (phase.status === 'error') {
      lines.push(colors.red(`phase ${phase.name}: stopped${phase.error ? `: ${phase.error}` : ''}`));
    }
  }
  for (const phase of phases) {
    if (phase.status !== 'running' || before.get(phase.phaseId) === 'running') continue;
    const at = `phase ${positionOf(phase, phases)}/${phases.length} ${phase.name}`;
    lines.push(
      colors.bold(
        previous === null
          ? `${at}: running, iteration ${phase.iterationsRun} of ${phase.maxIterations}`
          : `${at}: started (at most ${phase.maxIterations} iteration(s))`,
      ),
    );
  }
  return lines;
}

/** In a plan of phases, the escalation headline in the running phase's own iterations; null otherwise. */
export function phaseEscalation(state: CodingState): string | null {
  if (!state.plan?.phases?.length) return null;
  // Phases run at once (--parallel): the one that stopped the others says why (its first line).
  const stopping = state.phases?.find((phase) => phase.status === 'error' && phase.error && phase.error !== STOPPED_WITH_THE_RUN);
  if (stopping) return `Escalation: phase ${stopping.name} stopped the run: ${stopping.error?.split('\n')[0] ?? ''}`;
  const running = state.phases?.find((phase) => phase.status === 'running');
  if (!running) return null;
  return `Escalation: phase ${running.name} still fails validation after ${running.iterationsRun} of ${running.maxIterations} iterations.`;
}

/** The phases of a plan as the person approving it reads them: order, dependencies, budgets. */
export function renderPlanPhases(plan: ExecutionPlan, colors: Colors): string[] {
  if (!plan.phases?.length) return [];
  return [
    '',
    `  ${colors.bold('Phases')} (run one at a time, each after the phases it depends on):`,
    ...plan.phases.map((phase) => {
      const after = phase.dependencies.length ? ` after ${phase.dependencies.join(', ')}` : '';
      const budget = phase.maxIterations ? `, at most ${phase.maxIterations} iteration(s)` : '';
      const files = phase.steps.map((step) => step.filePath).join(', ');
      return `    ${colors.bold(phase.id)} ${phase.name}${after}${budget}: ${phase.steps.length} step(s) on ${files}`;
    }),
  ];
}

/** 1-based: the phases started before it plus one. */
function positionOf(phase: PhaseState, phases: readonly PhaseState[]): number {
  const started = phases.filter((p) => p.startedAt !== null && p.status !== 'pending');
  const sorted = [...started].sort((a, b) => String(a.startedAt).localeCompare(String(b.startedAt)));
  const index = sorted.findIndex((p) => p.phaseId === phase.phaseId);
  return index >= 0 ? index + 1 : started.length + 1;
}
