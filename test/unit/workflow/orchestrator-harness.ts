// An orchestrator over fake steps, and a pull-at-will view of a run's states, for the orchestrator tests.

import type { Host } from '../../../src/core/host';
import type { CodingState } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import type { FakeSteps } from './fake-steps';
import { WAIT_MS } from './machine-driver';

export { TempWorkspace, tempWorkspaceEachTest } from './temp-workspace';

/**
 * An orchestrator whose steps are the fakes, except the hand-off, which is the real one (it only
 * renders markdown and writes it through the store).
 */
export function orchestratorOver(host: Host, steps: FakeSteps): RunOrchestrator {
  // The hand-off step needs only the host; the model, agents and tools are never touched by it.
  const deps = { host } as unknown as OrchestratorDeps;
  return new RunOrchestrator(host, (store, traceFor) => ({
    ...steps.actors(),
    writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
  }));
}

/** Pulls states one at a time, with a time limit, and can check that none comes for a while. */
export class StateStream {
  readonly seen: CodingState[] = [];
  private readonly iterator: AsyncIterator<CodingState>;
  private pending: Promise<IteratorResult<CodingState>> | null = null;

  /** @param waitMs how long a state may take (longer for steps that do real work, e.g. parse 500 results). */
  constructor(
    states: AsyncIterable<CodingState>,
    private readonly waitMs = WAIT_MS,
  ) {
    this.iterator = states[Symbol.asyncIterator]();
  }

  get runId(): string {
    const first = this.seen[0];
    if (!first) throw new Error('no state seen yet');
    return first.stateId;
  }

  /** The next state; fails if the run ends or nothing comes in time. */
  async next(): Promise<CodingState> {
    const result = await this.pull();
    if (result.done) throw new Error(`the run ended; saw ${this.nodes().join(' → ')}`);
    return result.value;
  }

  /** Pulls until the run is at `node`. */
  async until(node: CodingState['currentNode']): Promise<CodingState> {
    for (;;) {
      const state = await this.next();
      if (state.currentNode === node) return state;
    }
  }

  /** Pulls to the end; returns the nodes seen since the call. */
  async rest(): Promise<string[]> {
    const from = this.seen.length;
    for (;;) {
      const result = await this.pull();
      if (result.done) return this.nodes().slice(from);
    }
  }

  /** True when the iterable ends within the time limit, without another state. */
  async ends(): Promise<boolean> {
    return (await this.pull()).done === true;
  }

  /** Checks that no state comes within `ms` (the run is waiting). */
  async quietFor(ms: number): Promise<boolean> {
    this.pending ??= this.iterator.next();
    const winner = await Promise.race([this.pending.then(() => 'state'), delay(ms).then(() => 'quiet')]);
    return winner === 'quiet';
  }

  /** Stops listening, as a caller that breaks out of its for-await loop does. */
  async close(): Promise<void> {
    await this.iterator.return?.();
  }

  nodes(): string[] {
    return this.seen.map((s) => s.currentNode);
  }

  private async pull(): Promise<IteratorResult<CodingState>> {
    const pending = this.pending ?? this.iterator.next();
    this.pending = null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no state within ${this.waitMs} ms; saw ${this.nodes().join(' → ')}`)), this.waitMs);
    });
    try {
      const result = await Promise.race([pending, timeout]);
      if (!result.done) this.seen.push(result.value);
      return result;
    } finally {
      clearTimeout(timer);
    }
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits (bounded) until `condition` holds. */
export async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await delay(2);
  }
}
