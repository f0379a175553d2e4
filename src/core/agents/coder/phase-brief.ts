// What a phase's coder is told of the phases: its own (name and description) and what each
// completed one did, in its hand-off. Not the other phases' steps, nor the conversations that did them.

import type { PhaseBrief } from '../../model';

export function phaseSections(phase: PhaseBrief): string[] {
  const own = [
    `# Phase ${phase.index} of ${phase.count}: ${phase.name}`,
    '',
    phase.description.trim() || '(no description)',
    '',
    'Carry out this phase only; the other phases are done by others, before or after you.',
  ].join('\n');
  if (phase.completed.length === 0) return [own];
  const done = phase.completed.map(
    (completed) => `## ${completed.name} (${completed.id})\n\n${completed.handoff.trim() || '(no hand-off)'}`,
  );
  return [own, ['# Phases already complete (their changes are in the workspace)', ...done].join('\n\n')];
}
