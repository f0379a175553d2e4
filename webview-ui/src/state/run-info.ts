// What the panel's "Model and instructions" section shows: the provider and model that
// answer (from the extension's `modelInfo` message), and the instructions files the run's agents
// were given (AGENTS.md, CLAUDE.md, --context files…), read from the run state's metadata, with a
// note for each one cut to fit the cap. Pure, so it is unit-tested without a DOM.

import type { CodingState } from '../../../src/core/model';
import type { ExtensionMessage } from '../../../src/shared/protocol';
import { formatTokens } from './format';

export type ModelInfo = Omit<Extract<ExtensionMessage, { type: 'modelInfo' }>, 'type'>;

export interface InstructionsFileRow {
  path: string;
  /** `1.2k chars`, or `cut to 1.2k chars` when the file was longer than the cap allowed. */
  note: string;
  truncated: boolean;
}

/** The instructions files of the run, in the order they were read; [] when none (or an older run). */
export function instructionsRows(run: CodingState | null): InstructionsFileRow[] {
  const read = run?.metadata.instructionsRead;
  if (!Array.isArray(read)) return [];
  return read.flatMap((entry: unknown): InstructionsFileRow[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { path, chars, truncated } = entry as { path?: unknown; chars?: unknown; truncated?: unknown };
    if (typeof path !== 'string' || typeof chars !== 'number') return [];
    const size = `${formatTokens(chars)} chars`;
    return [{ path, truncated: truncated === true, note: truncated === true ? `cut to ${size} (over the size cap)` : size }];
  });
}

/** The model line for the run shown, or for the next run when the message is about the settings. */
export function modelLine(info: ModelInfo | null): string | null {
  if (!info) return null;
  return info.fallback ? `${info.text} (fallback: ${info.fallback})` : info.text;
}
