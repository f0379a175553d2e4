// A model that answers from a script: for unit tests of the agents and the statechart (no HTTP),
// and the base of the demo model. It records every request so a test can check what the agent
// sent (system prompt, tools, the tool_result blocks of the previous turn).

import { EMPTY_USAGE } from '../model';
import type { Usage } from '../model';
import type { ModelClient, ModelRequest, ModelResponse, StopReason, TextBlock, ToolUseBlock } from './port';
import { ModelApiError } from './errors';

export type ScriptedResponder = (request: ModelRequest, callIndex: number) => ModelResponse | Promise<ModelResponse>;
export type ScriptedTurn = ModelResponse | ScriptedResponder;

/** A request as recorded: a snapshot, so later turns appending to the conversation do not change it. */
export type RecordedRequest = Omit<ModelRequest, 'signal' | 'onText' | 'onProgress'>;

export class ScriptedModelClient implements ModelClient {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedTurn[];
  private readonly fallback: ScriptedResponder | null;

  /** A list is answered in order (then fails loudly); a function answers every call. */
  constructor(script: readonly ScriptedTurn[] | ScriptedResponder = []) {
    this.queue = typeof script === 'function' ? [] : [...script];
    this.fallback = typeof script === 'function' ? script : null;
  }

  enqueue(...turns: ScriptedTurn[]): this {
    this.queue.push(...turns);
    return this;
  }

  get remaining(): number {
    return this.queue.length;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal?.aborted) throw new ModelApiError('cancelled', 'The model call was cancelled.');
    const { signal: _signal, onText, onProgress, ...rest } = request;
    onProgress?.();
    this.requests.push(structuredClone(rest));
    const callIndex = this.requests.length - 1;
    const turn = this.queue.shift() ?? this.fallback;
    if (!turn) {
      throw new Error(
        `ScriptedModelClient: no scripted response left for call #${callIndex + 1} (model ${request.model}); ` +
          `the last message was: ${describeLast(request)}`,
      );
    }
    const response = typeof turn === 'function' ? await turn(request, callIndex) : turn;
    // As a streaming client would: the answer's words before the answer (one piece per text block).
    for (const block of response.content) if (block.type === 'text' && block.text) onText?.(block.text);
    return structuredClone(response);
  }
}

let nextToolUseId = 1;

export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

export function toolUseBlock(name: string, input: unknown, id = `toolu_scripted_${nextToolUseId++}`): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

/**
 * One model answer. The stop reason follows the content (tool_use when it calls a tool), as the
 * real API does, unless given.
 */
export function modelTurn(
  blocks: Array<TextBlock | ToolUseBlock> | string,
  options: { usage?: Partial<Usage>; stopReason?: StopReason; model?: string } = {},
): ModelResponse {
  const content = typeof blocks === 'string' ? [textBlock(blocks)] : blocks;
  const callsTool = content.some((block) => block.type === 'tool_use');
  return {
    content,
    stopReason: options.stopReason ?? (callsTool ? 'tool_use' : 'end_turn'),
    model: options.model ?? 'scripted-model',
    usage: { ...EMPTY_USAGE, ...options.usage },
  };
}

function describeLast(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1];
  if (!last) return '(none)';
  const text = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
