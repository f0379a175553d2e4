// The phases of a run while its CODE step runs them at once (`--parallel N`): each phase's status and
// worktree are saved to the run's state.json and shown to its faces as the phase starts and ends,
// not only at the run's next transition (the step is one transition however long its phases work).

import { AgentModeError } from '../errors';
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

/** The error that stops the phases, carrying them as they ran: the escalation shows them so (stuck.ts). */
export function carryingPhases(error: AgentModeError, phases: PhaseState[]): AgentModeError {
  return new AgentModeError(error.message, error.code, { ...error.details, phases }, { cause: error.cause });
}

/** The phases an error carries (carryingPhases); undefined for any other error. */
export function phasesCarriedBy(error: unknown): PhaseState[] | undefined {
  if (!(error instanceof AgentModeError)) return undefined;
  const phases = error.details.phases;
  return Array.isArray(phases) ? (phases as PhaseState[]) : undefined;
}
