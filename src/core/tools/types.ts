// What a tool is, as the agents' tool-use loop sees it. Failures the model can fix are data
// (`ok: false` with a message saying how), never exceptions.

import type { ZodType } from 'zod';
import type { Host } from '../host';
import type { StagedOverlay } from './workspace/overlay';

export interface ToolContext {
  host: Host;
  /** Reads see staged edits; the editor tool writes only here. */
  overlay: StagedOverlay;
  signal?: AbortSignal;
}

export type ToolOutcome = { ok: true; content: string } | { ok: false; error: string };

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  /** Validates (and coerces) the model's arguments. */
  input: ZodType<Input>;
  /** True for tools that change nothing (they never need approval). */
  readonly: boolean;
  timeoutMs: number;
  /** Anthropic-defined tools (the text editor) are declared by type, not by schema. */
  anthropicType?: 'text_editor_20250728';
  execute(input: Input, context: ToolContext): Promise<ToolOutcome>;
}
