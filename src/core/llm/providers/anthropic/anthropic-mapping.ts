// Translation between our model port (port.ts) and the Anthropic Messages API shapes.
//
// Prompt caching: Anthropic caches the prompt prefix up to each `cache_control` breakpoint, in the
// order tools → system → messages. The tools and the system prompt never change within an agent's
// loop, so a breakpoint on the last tool and one on the system block make them the cached prefix;
// a third on the last block of the newest message writes this turn's conversation to the cache.
// The API looks for an earlier cached prefix only up to 20 blocks before a breakpoint, so a turn
// with many parallel tool calls (12 tool_use + 12 tool_result blocks) would put the previous
// turn's entry out of reach: the fourth breakpoint therefore sits exactly where the previous
// request put its newest one (the last message before the newest answer), which reads that entry
// whatever the number of blocks in between (4 breakpoints are allowed).

import type { ContentBlockParam, Message, MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { AnswerBlock, ContentBlock, ModelMessage, ModelToolDefinition } from '../../port';
import type { TokenCounts } from './pricing';

const EPHEMERAL = { type: 'ephemeral' } as const;

export function toAnthropicTools(tools: readonly ModelToolDefinition[]): ToolUnion[] {
  return tools.map((tool, index): ToolUnion => {
    const cache = index === tools.length - 1 ? { cache_control: EPHEMERAL } : {};
    if (tool.kind === 'text_editor') return { type: tool.type, name: tool.name, ...cache };
    return {
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.inputSchema, type: 'object' },
      ...cache,
    };
  });
}

export function toAnthropicSystem(system: string): TextBlockParam[] | undefined {
  if (!system) return undefined;
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

export function toAnthropicMessages(messages: readonly ModelMessage[], cacheConversation: boolean): MessageParam[] {
  const marked = cacheConversation ? conversationBreakpoints(messages) : new Set<number>();
  return messages.map((message, index): MessageParam => {
    if (marked.has(index)) return { role: message.role, content: withCacheBreakpoint(message.content) };
    return {
      role: message.role,
      content: typeof message.content === 'string' ? message.content : message.content.map(toBlockParam),
    };
  });
}

/**
 * The messages whose last block carries a breakpoint: the newest, and the one the previous request
 * ended with (the message before the newest assistant answer), so its cache entry is read exactly.
 */
export function conversationBreakpoints(messages: readonly ModelMessage[]): Set<number> {
  const newest = messages.length - 1;
  const marked = new Set<number>();
  if (newest < 0) return marked;
  marked.add(newest);
  let answer = newest;
  while (answer >= 0 && messages[answer].role !== 'assistant') answer -= 1;
  if (answer > 0) marked.add(answer - 1);
  return marked;
}

function toBlockParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        content: block.content,
        ...(block.is_error ? { is_error: true } : {}),
      };
    // Back exactly as the API gave them: it checks the signature.
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
  }
}

function withCacheBreakpoint(content: ModelMessage['content']): string | ContentBlockParam[] {
  const blocks: ContentBlockParam[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content.map(toBlockParam);
  const lastIndex = blocks.length - 1;
  const lastBlock = blocks[lastIndex];
  // Empty text blocks may not carry a breakpoint (the API refuses them); nothing to cache then.
  if (!lastBlock || (lastBlock.type === 'text' && lastBlock.text === '')) return typeof content === 'string' ? content : blocks;
  blocks[lastIndex] = { ...lastBlock, cache_control: EPHEMERAL } as ContentBlockParam;
  return blocks;
}

export interface MappedResponse {
  content: AnswerBlock[];
  stopReason: string;
  model: string;
  tokens: TokenCounts;
}

/**
 * Keeps the blocks the port knows: text, tool_use, and thinking/redacted_thinking (which must go
 * back unchanged in the next turn); server-tool blocks are dropped.
 */
export function fromAnthropicMessage(message: Message): MappedResponse {
  const content: AnswerBlock[] = [];
  for (const block of message.content) {
    // An empty text block cannot be sent back in the next turn (the API refuses it), so it is dropped here.
    if (block.type === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
    else if (block.type === 'thinking') content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking') content.push({ type: 'redacted_thinking', data: block.data });
  }
  const usage = message.usage;
  return {
    content,
    stopReason: message.stop_reason ?? 'end_turn',
    model: message.model,
    tokens: {
      inputTokens: usage.input_tokens ?? 0,
      outputTokens: usage.output_tokens ?? 0,
      cacheReadTokens: usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    },
  };
}
