// The OpenAI-compatible provider with the real `openai` SDK against the local fake Chat
// Completions server: streamed tool calls split across chunks, usage (with cached tokens) in the
// last chunk, the editor tool as a plain function, retries on 429/5xx, a cut stream, no key.

import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { OpenAIModelClient } from '../../src/core/llm/providers/openai/client';
import { createModelClient } from '../../src/core/runtime/model-client';
import { ModelApiError } from '../../src/core/llm/errors';
import { ConfigurationError } from '../../src/core/errors';
import type { ModelRequest } from '../../src/core/llm/port';
import { chatError, chatText, chatToolCall, startFakeOpenAI } from '../support/fake-openai';
import type { FakeOpenAI } from '../support/fake-openai';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'local-coder',
    system: 'You are the coder.',
    tools: [
      {
        kind: 'custom',
        name: 'read_file',
        description: 'Reads a file',
        inputSchema: { properties: { path: { type: 'string' } }, required: ['path'] },
      },
      { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' },
    ],
    messages: [{ role: 'user', content: 'Fix Divide.' }],
    maxTokens: 1000,
    ...overrides,
  };
}

describe('OpenAI-compatible provider (real openai SDK, fake Chat Completions server)', function () {
  this.timeout(30_000);
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(() => fake.close());

  it('joins a streamed tool call split across chunks and reads usage, cached tokens apart, from the last chunk', async () => {
    const args = { command: 'str_replace', path: 'src/Calc.cs', old_str: 'a * b', new_str: 'a / b' };
    fake.enqueue(
      chatToolCall('str_replace_based_edit_tool', args, {
        text: 'Fixing it.',
        id: 'call_1',
        usage: { prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 1000 },
      }),
    );
    const client = new OpenAIModelClient({ apiKey: 'sk-local', baseURL: fake.url, logger: silent });
    const response = await client.complete(request({ toolChoice: 'any' }));
    assert.deepEqual(response.content, [
      { type: 'text', text: 'Fixing it.' },
      { type: 'tool_use', id: 'call_1', name: 'str_replace_based_edit_tool', input: args },
    ]);
    assert.equal(response.stopReason, 'tool_use');
    assert.deepEqual(response.usage, {
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 1000,
      cacheWriteTokens: 0,
      costUsd: 0,
      costUnknown: true,
    });

    const body = fake.requests[0].body;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, 1000, 'a server other than api.openai.com gets max_tokens');
    assert.equal(body.tool_choice, 'required');
    assert.deepEqual(body.messages[0], { role: 'system', content: 'You are the coder.' });
    const editor = body.tools?.find((t) => t.function.name === 'str_replace_based_edit_tool');
    assert.equal(editor?.type, 'function', 'the editor is an ordinary function');
    assert.match(
      editor?.function.description ?? '',
      /"create" makes a NEW file .* it refuses a file that already exists \(view it and use str_replace or insert instead/,
    );
    assert.match(
      editor?.function.description ?? '',
      /old_str must match EXACTLY one or more consecutive lines of the file, whitespace and indentation included, and occur exactly once/,
    );
    assert.deepEqual((editor?.function.parameters?.properties as { command: { enum: string[] } }).command.enum, [
      'view',
      'create',
      'str_replace',
      'insert',
      'delete',
    ]);
    assert.equal(fake.requests[0].headers.authorization, 'Bearer sk-local');
  });

  it('the fake refuses a gpt-5 model a temperature but the default, as the real API does; the client sends none and completes', async () => {
    const raw = new OpenAI({ apiKey: 'sk-local', baseURL: fake.url, maxRetries: 0 });
    await assert.rejects(
      raw.chat.completions.create({
        model: 'gpt-5-mini',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0,
        max_completion_tokens: 10,
      }),
      (error: Error & { status?: number }) =>
        error.status === 400 &&
        /Unsupported value: 'temperature' does not support 0 with this model\. Only the default \(1\) value is supported\./.test(
          error.message,
        ),
    );
    await assert.rejects(
      raw.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 }),
      /Use 'max_completion_tokens' instead/,
    );
    assert.equal(fake.pending, 0);

    const warnings: string[] = [];
    const client = new OpenAIModelClient({ apiKey: 'sk-local', baseURL: fake.url, logger: { ...silent, warn: (m) => warnings.push(m) } });
    fake.enqueue(chatText('one'), chatText('two'));
    await client.complete(request({ model: 'gpt-5-mini', temperature: 0 }));
    const second = await client.complete(request({ model: 'gpt-5-mini', temperature: 0 }));
    assert.deepEqual(second.content, [{ type: 'text', text: 'two' }]);
    const body = fake.requests.at(-1)?.body;
    assert.equal(body?.temperature, undefined);
    assert.equal(body?.max_completion_tokens, 1000);
    assert.equal(body?.max_tokens, undefined);
    assert.deepEqual(
      warnings.filter((w) => /temperature/.test(w)),
      ['gpt-5-mini takes only its default temperature; the configured temperature 0 is not sent.'],
      'said once per model',
    );
  });

  it('sends tool results as tool messages right after the assistant call, errors marked', async () => {
    fake.enqueue(chatText('done'));
    const client = new OpenAIModelClient({ apiKey: 'k', baseURL: fake.url, logger: silent });
    await client.complete(
      request({
        messages: [
          { role: 'user', content: 'Fix Divide.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call_9', name: 'read_file', input: { path: 'x' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_9', content: 'not found', is_error: true },
              { type: 'text', text: 'One call left.' },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(fake.requests[0].body.messages.slice(1), [
      { role: 'user', content: 'Fix Divide.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_9', content: 'Error: not found' },
      { role: 'user', content: 'One call left.' },
    ]);
  });

  it('retries a 429 and a 503 by itself, then answers', async () => {
    fake.enqueue(chatError(429), chatError(503), chatText('hello'));
    const client = new OpenAIModelClient({ apiKey: 'k', baseURL: fake.url, logger: silent });
    const response = await client.complete(request());
    assert.deepEqual(response.content, [{ type: 'text', text: 'hello' }]);
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(fake.requests.length, 3);
  });

  it('a 500 that outlasts the retries is a server error; a cut stream is a connection error', async () => {
    const client = new OpenAIModelClient({ apiKey: 'k', baseURL: fake.url, logger: silent, maxRetries: 1 });
    fake.enqueue(chatError(500), chatError(500));
    await assert.rejects(
      client.complete(request()),
      (error: unknown) => error instanceof ModelApiError && error.kind === 'server' && error.status === 500,
    );
    fake.enqueue({ kind: 'turn', text: 'never finished', cut: true });
    await assert.rejects(
      client.complete(request()),
      (error: unknown) => error instanceof ModelApiError && error.kind === 'connection' && /broke off/.test(error.message),
    );
  });

  it('a local server works without a key; no key and no base URL fails naming OPENAI_API_KEY', async () => {
    fake.enqueue(chatText('hi'));
    const local = createModelClient({ provider: 'openai', env: { OPENAI_BASE_URL: fake.url }, logger: silent });
    assert.deepEqual((await local.complete(request())).content, [{ type: 'text', text: 'hi' }]);
    assert.throws(
      () => createModelClient({ provider: 'openai', env: {} }),
      (error: unknown) => error instanceof ConfigurationError && /No OpenAI API key: set OPENAI_API_KEY/.test(error.message),
    );
  });
});
