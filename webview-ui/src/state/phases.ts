// The panel's phase lanes: one lane per phase of a plan in phases, in the order they ran (then the
// pending ones in plan order), each with its status, its iterations and what it waits for. Pure:
// unit-tested. A plan in one phase has no lanes (the timeline already is that phase).

import type { CodingState, PhaseState } from '../../../src/core/model';

export interface PhaseLane {
  id: string;
  name: string;
  status: PhaseState['status'];
  /** `iteration 2 of 3` while running, `2 iterations` when done, `waits for fix, mod` when pending. */
  detail: string;
  /** What the phase did (complete) or why it stopped (error). */
  note: string | null;
}

export function phaseLanes(run: CodingState): PhaseLane[] {
  const planned = run.plan?.phases ?? [];
  const phases = run.phases ?? [];
  if (planned.length === 0 || phases.length === 0) return [];
  const started = phases.filter((phase) => phase.startedAt !== null).sort((a, b) => String(a.startedAt).localeCompare(String(b.startedAt)));
  const pending = phases.filter((phase) => phase.startedAt === null);
  return [...started, ...pending].map((phase) => {
    const waitsFor = (planned.find((p) => p.id === phase.phaseId)?.dependencies ?? []).filter(
      (id) => phases.find((p) => p.phaseId === id)?.status !== 'complete',
    );
    return {
      id: phase.phaseId,
      name: phase.name,
      status: phase.status,
      detail: detailOf(phase, waitsFor),
      note: phase.status === 'error' ? (phase.error ?? null) : phase.status === 'complete' ? (phase.handoff ?? null) : null,
    };
  });
}

function detailOf(phase: PhaseState, waitsFor: readonly string[]): string {
  switch (phase.status) {
    case 'running':
      return `iteration ${phase.iterationsRun} of ${phase.maxIterations}`;
    case 'pending':
      return waitsFor.length ? `waits for ${waitsFor.join(', ')}` : 'ready';
    default:
      return `${phase.iterationsRun} iteration${phase.iterationsRun === 1 ? '' : 's'}`;
  }
}

/** The running phase's live activity: the last line of the run's latest activity entry, if any. */
export function latestActivity(entries: ReadonlyArray<{ text: string }> | undefined): string | null {
  const text = entries?.at(-1)?.text.trim();
  if (!text) return null;
  return text.split('\n').at(-1)?.trim() || null;
}
