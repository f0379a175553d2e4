// The extension is trusted code, but a webview's `message` event can carry anything posted into
// the frame. A cheap structural check keeps a malformed or foreign message from reaching the
// reducer (where it would blank the panel). The message kinds come from the protocol's type: the
// `Record` below fails to compile when protocol.ts gains a kind this file does not check.

import type { ExtensionMessage, ExtensionMessageType } from '../../../src/shared/protocol';

type Fields = Record<string, unknown>;

const CHECKS: Record<ExtensionMessageType, (m: Fields) => boolean> = {
  state: (m) =>
    typeof m.busy === 'boolean' &&
    typeof m.statusText === 'string' &&
    (m.interrupted === undefined || typeof m.interrupted === 'boolean') &&
    (m.run === null || isRunLike(m.run)),
  review: (m) => typeof m.runId === 'string' && Array.isArray(m.files) && m.files.every(isFileReviewLike),
  history: (m) => Array.isArray(m.runs) && m.runs.every((r) => isObject(r) && typeof r.runId === 'string'),
  settings: (m) =>
    typeof m.maxIterations === 'number' &&
    typeof m.model === 'string' &&
    typeof m.hasApiKey === 'boolean' &&
    (m.keyStatus === undefined || typeof m.keyStatus === 'string'),
  modelInfo: (m) =>
    (m.runId === null || typeof m.runId === 'string') &&
    typeof m.text === 'string' &&
    (m.fallback === null || typeof m.fallback === 'string'),
  error: (m) => typeof m.message === 'string',
  notice: (m) => typeof m.message === 'string',
  stepTurns: (m) =>
    typeof m.runId === 'string' &&
    (m.node === 'PLAN' || m.node === 'CODE') &&
    Array.isArray(m.groups) &&
    m.groups.every(
      (g) => isObject(g) && typeof g.label === 'string' && Array.isArray(g.turns) && g.turns.length > 0 && g.turns.every(isTurnLike),
    ),
  checkpoints: (m) => typeof m.runId === 'string' && Array.isArray(m.checkpoints) && m.checkpoints.every(isCheckpointLike),
  activity: (m) =>
    typeof m.runId === 'string' && typeof m.reset === 'boolean' && Array.isArray(m.entries) && m.entries.every(isActivityEntryLike),
};

/** The message as an ExtensionMessage, or null when it is not one. */
export function parseExtensionMessage(data: unknown): ExtensionMessage | null {
  if (!isObject(data) || typeof data.type !== 'string') return null;
  if (!Object.prototype.hasOwnProperty.call(CHECKS, data.type)) return null;
  const check = CHECKS[data.type as ExtensionMessageType];
  // The checks above cover every field the panel reads, so the cast is the checked shape.
  return check(data) ? (data as unknown as ExtensionMessage) : null;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRunLike(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.stateId === 'string' &&
    typeof value.currentNode === 'string' &&
    Array.isArray(value.codeDiffs) &&
    isObject(value.usage)
  );
}

function isActivityEntryLike(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    (value.kind === 'turn' || value.kind === 'tool') &&
    typeof value.agent === 'string' &&
    typeof value.text === 'string' &&
    typeof value.done === 'boolean' &&
    typeof value.ok === 'boolean' &&
    (value.usage === undefined || isObject(value.usage))
  );
}

function isFileReviewLike(value: unknown): boolean {
  return isObject(value) && typeof value.filePath === 'string' && typeof value.status === 'string';
}

function isTurnLike(t: unknown): boolean {
  return (
    isObject(t) &&
    typeof t.turn === 'number' &&
    Array.isArray(t.tool_calls) &&
    isObject(t.outcome) &&
    isObject(t.timings) &&
    isObject(t.tokens)
  );
}

function isCheckpointLike(c: unknown): boolean {
  return (
    isObject(c) &&
    typeof c.id === 'string' &&
    typeof c.label === 'string' &&
    typeof c.kind === 'string' &&
    typeof c.iteration === 'number' &&
    typeof c.green === 'boolean' &&
    isObject(c.tests)
  );
}
