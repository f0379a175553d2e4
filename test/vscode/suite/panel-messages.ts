// What the extension sends the Agent panel, recorded in order at the bridge's door (the view's
// `post`), so a suite asserts on exactly the state the panel receives rather than on the
// controller's own copy.

import type { CodingState, WorkflowNode } from '../../../src/core/model';
import type { ExtensionMessage } from '../../../src/shared/protocol';
import { eventually, ironbees } from './helpers';

type Of<T extends ExtensionMessage['type']> = Extract<ExtensionMessage, { type: T }>;

export interface PanelCapture {
  readonly messages: readonly ExtensionMessage[];
  /** The run of the last `state` message (null before any). */
  lastRun(): CodingState | null;
  /** Waits for a `state` message whose run is `runId` at `node` with `iteration` iterations, and returns that run. */
  runAt(runId: string, node: WorkflowNode, iteration: number, timeoutMs?: number): Promise<CodingState>;
  /** The last `modelInfo` message about run `runId`. */
  lastModelInfo(runId: string): Omit<Of<'modelInfo'>, 'type'> | null;
  lastSettings(): Of<'settings'> | null;
  /** Puts the view's own `post` back. */
  dispose(): void;
}

/** Starts recording every message posted to the panel (a copy, as the webview would get it). */
export async function capturePanelMessages(): Promise<PanelCapture> {
  const { view } = await ironbees();
  const messages: ExtensionMessage[] = [];
  const post = view.post.bind(view);
  view.post = (message: ExtensionMessage): void => {
    messages.push(structuredClone(message));
    post(message);
  };
  const last = <T extends ExtensionMessage['type']>(type: T, match: (m: Of<T>) => boolean = () => true): Of<T> | null =>
    messages.filter((m): m is Of<T> => m.type === type && match(m as Of<T>)).at(-1) ?? null;
  return {
    messages,
    lastRun: () => last('state')?.run ?? null,
    runAt: (runId, node, iteration, timeoutMs = 20_000) =>
      eventually(
        `the panel to be sent run ${runId} at ${node} (iteration ${iteration})`,
        () => last('state', (m) => m.run?.stateId === runId && m.run.currentNode === node && m.run.iterationCount === iteration)?.run,
        timeoutMs,
      ),
    lastModelInfo: (runId) => last('modelInfo', (m) => m.runId === runId),
    lastSettings: () => last('settings'),
    dispose: () => {
      view.post = post;
    },
  };
}
