// Runs the real statechart with fake steps and records every node it passes through, so a test
// can wait for "the n-th node" or "the next time it is at X" without racing the promise actors.

import { createActor, waitFor } from 'xstate';
import type { Actor, SnapshotFrom } from 'xstate';
import type { WorkflowContext, WorkflowNode } from '../../../src/core/model';
import { runMachine } from '../../../src/core/workflow/machine';
import type { RunEvent } from '../../../src/core/workflow/run-context';
import type { FakeSteps } from './fake-steps';
import { runInput } from './samples';

export type RunSnapshot = SnapshotFrom<typeof runMachine>;

/** Long enough for any fake step; short enough that a wrong path fails fast instead of hanging. */
export const WAIT_MS = 2000;

export class MachineRun {
  readonly actor: Actor<typeof runMachine>;
  /** Every node entered, in order (a node entered twice appears twice). */
  readonly nodes: WorkflowNode[] = [];

  constructor(steps: FakeSteps, overrides: Partial<WorkflowContext> = {}) {
    const machine = runMachine.provide({ actors: steps.actors() });
    this.actor = createActor(machine, { input: runInput(overrides) });
    this.actor.subscribe({
      next: (snapshot) => this.record(snapshot),
      error: () => undefined,
    });
    this.actor.start();
    this.record(this.actor.getSnapshot());
  }

  get snapshot(): RunSnapshot {
    return this.actor.getSnapshot();
  }

  /** Waits until the run has entered `node` for the `occurrence`-th time (1 = first). */
  async reach(node: WorkflowNode, occurrence = 1): Promise<RunSnapshot> {
    const count = (): number => this.nodes.filter((n) => n === node).length;
    try {
      await waitFor(this.actor, () => count() >= occurrence, { timeout: WAIT_MS });
    } catch (error) {
      throw new Error(`Never reached ${node} #${occurrence}; went ${this.nodes.join(' → ')}`, { cause: error });
    }
    return this.actor.getSnapshot();
  }

  /** Waits until `node` has been entered `occurrence` times and the run is still there, then sends. */
  async sendAt(node: WorkflowNode, event: RunEvent, occurrence = 1): Promise<RunSnapshot> {
    await this.reach(node, occurrence);
    const current = this.actor.getSnapshot().value;
    if (current !== node) throw new Error(`Expected to be at ${node} to send ${event.type}, but at ${current}`);
    this.actor.send(event);
    return this.actor.getSnapshot();
  }

  stop(): void {
    this.actor.stop();
  }

  private record(snapshot: RunSnapshot): void {
    // The actor reports a snapshot per event. Every step is an asynchronous promise actor, so every
    // node entered shows up in at least one snapshot: a change of value is a transition.
    const node = snapshot.value as WorkflowNode;
    if (this.nodes[this.nodes.length - 1] !== node) this.nodes.push(node);
  }
}
