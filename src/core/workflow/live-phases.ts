// The phases of a run while its CODE step runs them at once (`--parallel N`): each phase's status and
// worktree are saved to the run's state.json and shown to its faces as the phase starts and ends,
// not only at the run's next transition (the step is one transition however long its phases work).

import type { PhaseState } from '../model';
import type { PhaseRun } from './phase-states';
import type { PersistedRun } from './store';

/** Shows the run's phases as they are now: saved, and handed to whoever watches the run. */
export type ShowPhases = (phases: PhaseState[]) => Promise<void>;

/** The phases as CodingState shows them (the run's own bookkeeping left out). */
export function shownPhases(runs: Iterable<PhaseRun>): PhaseState[] {
  return [...runs].map(({ firstIteration: _first, ...shown }) => shown);
}

/** The persisted run with its phases as they are now. */
export function withPhases(run: PersistedRun, phases: PhaseState[], at: string): PersistedRun {
  return { ...run, updatedAt: at, codingState: { ...run.codingState, phases, timestamp: at } };
}
