import assert from 'node:assert/strict';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import {
  fromAnthropicMessage,
  toAnthropicMessages,
  toAnthropicSystem,
  toAnthropicTools,
} from '../../../src/core/llm/providers/anthropic/anthropic-mapping';

describe('Anthropic mapping', () => {
  it('puts the cache breakpoint on the last tool only, and declares the text editor by type', () => {
    const tools = toAnthropicTools([
      { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' },
      { kind: 'custom', name: 'submit_plan', description: 'd', inputSchema: { properties: {} } },
    ]);
    assert.deepEqual(tools, [
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      { name: 'submit_plan', description: 'd', input_schema: { properties: {}, type: 'object' }, cache_control: { type: 'ephemeral' } },
    ]);
    assert.deepEqual(toAnthropicTools([]), []);
  });

  it('caches the system prompt as one block, and sends none when it is empty', () => {
    assert.deepEqual(toAnthropicSystem('sys'), [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    assert.equal(toAnthropicSystem(''), undefined);
  });

  it('marks the newest message and the one the previous request ended with (a string becomes a text block), unless asked not to', () => {
    const messages = toAnthropicMessages(
      [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read_file', input: { path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'oops', is_error: true }] },
      ],
      true,
    );
    assert.deepEqual(messages[0].content, [{ type: 'text', text: 'first', cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(messages[1].content, [{ type: 'tool_use', id: 't', name: 'read_file', input: { path: 'a' } }]);
    assert.deepEqual(messages[2].content, [
      { type: 'tool_result', tool_use_id: 't', content: 'oops', is_error: true, cache_control: { type: 'ephemeral' } },
    ]);
    const single = toAnthropicMessages([{ role: 'user', content: 'only' }], true);
    assert.deepEqual(single[0].content, [{ type: 'text', text: 'only', cache_control: { type: 'ephemeral' } }]);
    assert.equal(toAnthropicMessages([{ role: 'user', content: 'plain' }], false)[0].content, 'plain');
  });

  it('keeps thinking, text and tool_use blocks of an answer (not empty text), with every token count', () => {
    const message = {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        { type: 'thinking', thinking: '…', signature: 's' },
        { type: 'text', text: '', citations: null },
        { type: 'text', text: 'hi', citations: null },
        { type: 'tool_use', id: 't', name: 'read_file', input: { path: 'a' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: null },
    } as unknown as Message;
    assert.deepEqual(fromAnthropicMessage(message), {
      content: [
        { type: 'thinking', thinking: '…', signature: 's' },
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 't', name: 'read_file', input: { path: 'a' } },
      ],
      stopReason: 'tool_use',
      model: 'claude-sonnet-4-6',
      tokens: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 0 },
    });
  });
});
