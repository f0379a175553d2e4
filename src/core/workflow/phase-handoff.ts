// HANDOFF.md's phases: a section per phase of a plan in phases, with its status, its iterations and
// what it did (its hand-off) or why it stopped. A plan in one phase needs none: the rest of the
// hand-off already is that phase's.

import type { CodingState, PhaseState } from '../model';

export function phaseSections(state: CodingState): string[] {
  const phases = state.phases ?? [];
  const planned = state.plan?.phases ?? [];
  if (planned.length === 0 || phases.length === 0) return [];
  const lines: string[] = ['## Phases', ''];
  for (const phase of phases) {
    const dependencies = planned.find((p) => p.id === phase.phaseId)?.dependencies ?? [];
    lines.push(`### ${phase.name} (\`${phase.phaseId}\`): ${phase.status}`, '');
    lines.push(`- Iterations: ${phase.iterationsRun} of ${phase.maxIterations}`);
    if (dependencies.length) lines.push(`- After: ${dependencies.map((id) => `\`${id}\``).join(', ')}`);
    lines.push(...timeLines(phase));
    if (phase.error) lines.push(`- Stopped: ${phase.error}`);
    if (phase.handoff) lines.push('', phase.handoff);
    lines.push('');
  }
  return lines;
}

function timeLines(phase: PhaseState): string[] {
  if (!phase.startedAt) return [];
  return [`- Started ${phase.startedAt}${phase.endedAt ? `, ended ${phase.endedAt}` : ''}`];
}
