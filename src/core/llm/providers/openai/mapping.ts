// Translation between our model port (llm/port.ts, shaped after Anthropic's Messages API) and the
// OpenAI Chat Completions shapes. Differences that matter:
// - the system prompt is the first message; OpenAI-compatible servers cache the longest repeated
//   prefix by themselves, so keeping system + tools unchanged first keeps them the cached prefix;
// - a tool result is its own `role: "tool"` message, which must directly follow the assistant
//   message that asked for it, so a user turn's tool results go first and its text after;
// - `prompt_tokens` counts the cached tokens too (`prompt_tokens_details.cached_tokens`): our
//   inputTokens are the uncached part, so the two are never counted twice.

import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ModelMessage, ModelRequest, ModelToolDefinition, TextBlock, ToolUseBlock } from '../../port';
import type { TokenCounts } from '../anthropic/pricing';
import { EDITOR_FUNCTION_DESCRIPTION, EDITOR_FUNCTION_PARAMETERS } from './editor-tool';

export function toOpenAITools(tools: readonly ModelToolDefinition[]): ChatCompletionTool[] {
  return tools.map((tool): ChatCompletionTool => {
    if (tool.kind === 'text_editor') {
      return {
        type: 'function',
        function: { name: tool.name, description: EDITOR_FUNCTION_DESCRIPTION, parameters: EDITOR_FUNCTION_PARAMETERS },
      };
    }
    return {
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema, type: 'object' } },
    };
  });
}

export function toOpenAIToolChoice(choice: ModelRequest['toolChoice']): ChatCompletionToolChoiceOption {
  return choice === 'any' ? 'required' : 'auto';
}

/** A tool result the tool flagged as an error keeps that flag in words: the message format has no field for it. */
export const TOOL_ERROR_PREFIX = 'Error: ';

export function toOpenAIMessages(system: string, messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push(message.role === 'user' ? { role: 'user', content: message.content } : { role: 'assistant', content: message.content });
      continue;
    }
    const texts = message.content.filter((block): block is TextBlock => block.type === 'text').map((block) => block.text);
    if (message.role === 'assistant') {
      const calls = message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      out.push({
        role: 'assistant',
        content: texts.length > 0 ? texts.join('\n') : null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
              })),
            }
          : {}),
      });
      continue;
    }
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      out.push({
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content: block.is_error ? `${TOOL_ERROR_PREFIX}${block.content}` : block.content,
      });
    }
    if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n') });
  }
  return out;
}

export interface MappedCompletion {
  content: Array<TextBlock | ToolUseBlock>;
  stopReason: string;
  model: string;
  tokens: TokenCounts;
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/**
 * Arguments that are not JSON (a small local model's slip) reach the tool as they came, so its
 * schema check answers the model with an error it can fix, rather than the run failing here.
 */
export function parseArguments(raw: string): unknown {
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function fromOpenAICompletion(completion: ChatCompletion): MappedCompletion {
  const choice = completion.choices[0];
  const content: Array<TextBlock | ToolUseBlock> = [];
  const message = choice?.message;
  if (message?.content) content.push({ type: 'text', text: message.content });
  if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) });
  }
  const finish = choice?.finish_reason ?? 'stop';
  // Some servers answer tool calls with finish_reason "stop"; the calls are what counts, unless the
  // answer was cut at its length limit: then the last call's arguments are incomplete.
  const hasCalls = content.some((block) => block.type === 'tool_use');
  const stopReason = message?.refusal ? 'refusal' : hasCalls && finish !== 'length' ? 'tool_use' : (STOP_REASONS[finish] ?? finish);
  const usage = completion.usage;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    content,
    stopReason,
    model: completion.model,
    tokens: {
      inputTokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
      outputTokens: usage?.completion_tokens ?? 0,
      cacheReadTokens: cached,
      cacheWriteTokens: 0,
    },
  };
}
