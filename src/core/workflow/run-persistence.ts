// How a run's transition reaches the disk: its events.jsonl line and state.json (with HANDOFF.md
// first at the end), and the usage of the step in flight counted in what is saved.

import { TERMINAL_NODES, addUsage } from '../model';
import type { CodingState, Usage, WorkflowNode } from '../model';
import { iterationsOf, renderHandoff } from './handoff';
import type { PersistedRun, RunStore } from './store';

/**
 * Writes a transition: its events.jsonl line and, alongside, state.json (after HANDOFF.md at the
 * end, so state.json never names a hand-off that is not there). Both are on disk when this
 * resolves, before the state is shown; the line does not wait for state.json, nor it for the line.
 */
export async function persistTransition(store: RunStore, run: PersistedRun, from: WorkflowNode | null): Promise<PersistedRun> {
  const state = run.codingState;
  const [line, written] = await Promise.allSettled([
    store.appendEvent(run.runId, {
      kind: 'transition',
      at: state.timestamp,
      from,
      to: state.currentNode,
      iteration: state.iterationCount,
    }),
    writeState(store, run),
  ]);
  if (written.status === 'rejected') throw written.reason;
  if (line.status === 'rejected') throw line.reason;
  return written.value;
}

async function writeState(store: RunStore, run: PersistedRun): Promise<PersistedRun> {
  const state = run.codingState;
  let saved = run;
  if (TERMINAL_NODES.includes(state.currentNode)) {
    const handoffPath = await store.writeHandoff(run.runId, renderHandoff(state, iterationsOf(state), endReason(state)));
    saved = { ...run, codingState: { ...state, metadata: { ...state.metadata, handoffPath } } };
  }
  await store.save(saved);
  return saved;
}

/** The run counting the usage of its step in flight, in its CodingState and in the snapshot a resume restores. */
export function plusInFlight(run: PersistedRun, inFlight: Usage): PersistedRun {
  if (Object.values(inFlight).every((value) => value === 0)) return run;
  const usage = addUsage(run.codingState.usage, inFlight);
  const machine = run.machine as { context?: Record<string, unknown> } | null;
  return {
    ...run,
    codingState: { ...run.codingState, usage },
    machine: machine?.context ? { ...machine, context: { ...machine.context, usage } } : run.machine,
  };
}

/** The hand-off's first line about how the run ended. */
export function endReason(state: CodingState): string {
  switch (state.currentNode) {
    case 'SUCCESS':
      return `The run succeeded: the build is clean and the tests pass after ${state.iterationCount} iteration(s).`;
    case 'FAILED':
      return 'The run failed with an error it could not recover from.';
    default:
      return 'The run was stopped by a person.';
  }
}
