// A run's states as the run controller reads them: the stream followed to its end, and a wait for
// the run to reach one of a set of nodes.

import type * as vscode from 'vscode';
import { OrchestratorError } from '../core/errors';
import type { CodingState, WorkflowNode } from '../core/model';

export interface StateListener {
  /** Every state, in order; `first` for the run's first one. */
  state(state: CodingState, first: boolean): void;
  /** The stream failed (after or before its first state). */
  error(error: unknown): void;
  /** The stream ended, whichever way. */
  end(): void;
}

/**
 * Reads the states `start` yields to their end. `first` resolves with the first state, or rejects
 * when the run fails or ends before it had one; `done` settles when the stream ended.
 */
export function followStates(
  start: () => AsyncIterable<CodingState>,
  on: StateListener,
): { first: Promise<CodingState>; done: Promise<void> } {
  let resolveFirst: (state: CodingState) => void = () => undefined;
  let rejectFirst: (error: unknown) => void = () => undefined;
  const first = new Promise<CodingState>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  const done = (async (): Promise<void> => {
    let seen = false;
    try {
      for await (const state of start()) {
        on.state(state, !seen);
        if (!seen) {
          seen = true;
          resolveFirst(state);
        }
      }
    } catch (error) {
      if (!seen) rejectFirst(error);
      on.error(error);
    } finally {
      if (!seen) rejectFirst(new OrchestratorError('The run ended before it started.'));
      on.end();
    }
  })();
  return { first, done };
}

/** Resolves with the state once it is at one of `nodes`; rejects after `timeoutMs`, saying where the run is. */
export function waitForNodes(
  current: () => CodingState | null,
  onDidChangeState: vscode.Event<CodingState | null>,
  nodes: readonly WorkflowNode[],
  timeoutMs: number,
): Promise<CodingState> {
  const now = current();
  if (now && nodes.includes(now.currentNode)) return Promise.resolve(now);
  return new Promise<CodingState>((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(
        new Error(`Timed out after ${timeoutMs} ms waiting for ${nodes.join('/')}; the run is at ${current()?.currentNode ?? 'nothing'}`),
      );
    }, timeoutMs);
    const listener = onDidChangeState((state) => {
      if (!state || !nodes.includes(state.currentNode)) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(state);
    });
  });
}
