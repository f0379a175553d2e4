// When a run takes a checkpoint, and what `plan`, `iteration:N`, `last-green` and an id name
// (docs/contracts.md, "Checkpoints and rewind"). A checkpoint is taken at each transition that
// follows a change: the plan approved (into CODE from the plan), an iteration's edits applied and
// validated (VALIDATE → DECIDE), an escalation (→ WAIT_HUMAN), the person's guidance (WAIT_HUMAN →
// CODE or PLAN). The store (checkpoint-store.ts) keeps the bytes.

import type { CodingState, IterationRecord, TestResult, WorkflowNode } from '../model';
import { ConfigurationError, errorMessage } from '../errors';
import type { CheckpointKind, CheckpointSource, CheckpointSummary, CheckpointTests } from './checkpoint-store';
import type { RunStore } from './store';

export interface CheckpointPoint {
  kind: CheckpointKind;
  label: string;
  tests: CheckpointTests;
  green: boolean;
}

function testsOf(result: TestResult | null | undefined): CheckpointTests {
  return { total: result?.total ?? 0, passed: result?.passed ?? 0, failed: result?.failed ?? 0 };
}

function lastIteration(state: CodingState): IterationRecord | undefined {
  const records = Array.isArray(state.metadata.iterations) ? (state.metadata.iterations as IterationRecord[]) : [];
  return records.filter((r) => r.iteration === state.iterationCount).at(-1) ?? records.at(-1);
}

/** The checkpoint a transition calls for, or null. */
export function checkpointAt(from: WorkflowNode | null, state: CodingState): CheckpointPoint | null {
  const to = state.currentNode;
  if (to === 'CODE' && (from === 'WAIT_PLAN_APPROVAL' || from === 'PLAN') && state.plan) {
    // Before any edit: the baseline is what the files hold.
    const baseline = state.baseline;
    const tests = testsOf(baseline?.test);
    return { kind: 'plan', label: 'plan approved', tests, green: baseline?.build.success === true && tests.failed === 0 };
  }
  const record = lastIteration(state);
  const green = record?.outcome === 'passed';
  if (from === 'VALIDATE' && to === 'DECIDE') {
    return {
      kind: 'iteration',
      label: `iteration ${state.iterationCount}: ${record?.outcome ?? 'validated'}`,
      tests: testsOf(state.testResult),
      green,
    };
  }
  if (to === 'WAIT_HUMAN' && from === 'ESCALATE')
    return { kind: 'escalation', label: 'escalated', tests: testsOf(state.testResult), green };
  if (from === 'WAIT_HUMAN' && (to === 'CODE' || to === 'PLAN')) {
    return { kind: 'guidance', label: 'guidance given', tests: testsOf(state.testResult), green };
  }
  return null;
}

/**
 * The checkpoint a reference names: `plan` (the first approved plan, before any edit),
 * `iteration:N` (the latest checkpoint of iteration N's validated edits), `last-green` (the latest
 * green one) or an id. An unknown reference is a configuration error (exit 2) listing what there is.
 */
export function resolveCheckpoint(runId: string, list: readonly CheckpointSummary[], ref: string): CheckpointSummary {
  const wanted = ref.trim();
  let found: CheckpointSummary | undefined;
  const iteration = /^iteration:(\d+)$/.exec(wanted);
  if (wanted === 'plan') found = list.find((c) => c.kind === 'plan');
  else if (iteration) found = list.filter((c) => c.kind === 'iteration' && c.iteration === Number(iteration[1])).at(-1);
  else if (wanted === 'last-green') found = list.filter((c) => c.green).at(-1);
  else found = list.find((c) => c.id === wanted);
  if (found) return found;
  const known = list.length ? list.map((c) => `${c.id} (${c.label})`).join(', ') : 'none yet';
  throw new ConfigurationError(
    `Run ${runId} has no checkpoint "${wanted}". Use an id, plan, iteration:N or last-green; its checkpoints: ${known}.`,
    { runId, checkpoint: wanted },
  );
}

/** Serialises the checkpoints of a store, so two never number themselves from the same index. */
const queues = new WeakMap<RunStore, Promise<unknown>>();

/**
 * Takes the checkpoint the transition calls for, if any. A checkpoint that cannot be taken (a file
 * turned into a link, a full disk) is logged: the run's own work comes first.
 */
export function takeCheckpoint(store: RunStore, source: CheckpointSource, from: WorkflowNode | null): Promise<CheckpointSummary | null> {
  const point = checkpointAt(from, source.codingState);
  if (!point) return Promise.resolve(null);
  const previous = queues.get(store) ?? Promise.resolve();
  const taken = previous
    .catch(() => undefined)
    .then(() => store.checkpoints.take(source, point))
    .catch((error: unknown) => {
      store.host.logger.warn(`Run ${source.runId}: the ${point.label} checkpoint was not taken: ${errorMessage(error)}`);
      return null;
    });
  queues.set(store, taken);
  return taken;
}
