// The model port. Shapes follow the Anthropic Messages API closely (it is the one we implement),
// but the core depends only on these types, so tests can script a model without the network.

import type { Usage } from '../model';

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}
/**
 * The model's own reasoning (Anthropic's extended thinking), signed by the API. It must go back
 * unchanged, in its place, in the next request of a tool-use turn, or the API refuses the request.
 */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
/** Reasoning the API keeps encrypted; passed back as it came. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
/** What a model answer may hold. */
export type AnswerBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;
export type ContentBlock = AnswerBlock | ToolResultBlock;

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** A tool as the model sees it: a custom tool with a JSON schema, or an Anthropic-defined tool. */
export type ModelToolDefinition =
  | { kind: 'custom'; name: string; description: string; inputSchema: Record<string, unknown> }
  | { kind: 'text_editor'; name: 'str_replace_based_edit_tool'; type: 'text_editor_20250728' };

export interface ModelRequest {
  /** Which provider serves `model` (a name of providers/registry.ts; 'anthropic' when absent); clients of one provider ignore it. */
  provider?: string;
  model: string;
  system: string;
  tools: ModelToolDefinition[];
  messages: ModelMessage[];
  maxTokens: number;
  temperature?: number;
  /** Forces a tool call when the agent must end its turn with one. */
  toolChoice?: 'auto' | 'any';
  signal?: AbortSignal;
  /**
   * Told each piece of the answer's text as it streams in (clients that do not stream may call it
   * once per text block, or never). Only for showing: the response's content is what counts.
   */
  onText?: (delta: string) => void;
  /**
   * Told each time any part of the answer arrives (the response starting, every streamed event,
   * reasoning included): the agent's heartbeat (agents/supervisor). Clients that do not stream may
   * never call it; the answer's arrival counts too.
   */
  onProgress?: () => void;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | string;

export interface ModelResponse {
  content: AnswerBlock[];
  stopReason: StopReason;
  model: string;
  /** Tokens and cost of this one call (cost from the model's price list). */
  usage: Usage;
  /** Set when the primary was out and a fallback provider/model answered instead. */
  fallback?: { from: string; to: string; reason: string };
}

export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelResponse>;
}
