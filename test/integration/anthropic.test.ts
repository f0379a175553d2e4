import assert from 'node:assert/strict';
import { Anthropic } from '@anthropic-ai/sdk';
import { AnthropicModelClient, DEFAULT_MODEL } from '../../src/core/llm/providers/anthropic/anthropic';
import { createModelClient } from '../../src/core/runtime/model-client';
import { ModelApiError, ModelAuthenticationError } from '../../src/core/llm/errors';
import type { ModelRequest, ModelToolDefinition } from '../../src/core/llm/port';
import { ConfigurationError } from '../../src/core/errors';
import type { Logger } from '../../src/core/host';
import { runPlanner } from '../../src/core/agents/planner/runner';
import { hang, httpError, startFakeAnthropic, text, toolUse, turn } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { agentRuntime, CALCULATOR_SOURCE, copyCalculator } from '../unit/agents/agent-harness';
import { promises as fs } from 'node:fs';

const TOOLS: ModelToolDefinition[] = [
  {
    kind: 'custom',
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' },
  {
    kind: 'custom',
    name: 'submit_changes',
    description: 'Ends the turn',
    inputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
  },
];

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: DEFAULT_MODEL,
    system: 'You are a careful C# engineer.',
    tools: TOOLS,
    messages: [{ role: 'user', content: 'Fix the Calculator.' }],
    maxTokens: 1024,
    ...overrides,
  };
}

function captureLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug: () => {}, info: () => {}, warn: (message) => warnings.push(message), error: () => {} };
}

describe('AnthropicModelClient against a fake Messages API (real SDK)', () => {
  let fake: FakeAnthropic;
  let client: AnthropicModelClient;

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    client = new AnthropicModelClient({ apiKey: 'sk-test-key', baseURL: fake.url, logger: captureLogger() });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams a text answer and sends the key and API version', async () => {
    fake.enqueue(text('I will read Calculator.cs first.', { input_tokens: 120, output_tokens: 9 }));
    const response = await client.complete(request());
    assert.deepEqual(response.content, [{ type: 'text', text: 'I will read Calculator.cs first.' }]);
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(response.model, DEFAULT_MODEL);
    assert.equal(response.usage.inputTokens, 120);
    assert.equal(response.usage.outputTokens, 9);
    const sent = fake.requests[0];
    assert.equal(sent.body.stream, true);
    assert.equal(sent.body.model, DEFAULT_MODEL);
    assert.equal(sent.body.max_tokens, 1024);
    const auth = sent.headers['x-api-key'] ?? sent.headers.authorization;
    assert.match(auth, /sk-test-key/);
    assert.ok(sent.headers['anthropic-version'], 'anthropic-version header is sent');
  });

  it('streams a tool_use whose input arrives in several JSON chunks', async () => {
    const input = { command: 'str_replace', path: 'src/Calculator.cs', old_str: 'a - b', new_str: 'a + b' };
    fake.enqueue(toolUse('str_replace_based_edit_tool', input, { id: 'toolu_1', text: 'Fixing Add.' }));
    const response = await client.complete(request());
    assert.equal(response.stopReason, 'tool_use');
    assert.deepEqual(response.content, [
      { type: 'text', text: 'Fixing Add.' },
      { type: 'tool_use', id: 'toolu_1', name: 'str_replace_based_edit_tool', input },
    ]);
  });

  it('maps tools, marks the stable prefix and the newest message for caching', async () => {
    fake.enqueue(text('ok'));
    await client.complete(
      request({
        toolChoice: 'any',
        temperature: 0,
        messages: [
          { role: 'user', content: 'Fix it.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.cs' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: 'class A {}' },
              { type: 'text', text: 'Now edit.' },
            ],
          },
        ],
      }),
    );
    const body = fake.requests[0].body;
    assert.deepEqual(body.system, [{ type: 'text', text: 'You are a careful C# engineer.', cache_control: { type: 'ephemeral' } }]);
    const tools = body.tools ?? [];
    assert.equal(tools.length, 3);
    assert.equal(tools[0].cache_control, undefined, 'only the last tool carries the breakpoint');
    assert.deepEqual(tools[1], { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
    assert.deepEqual(tools[2].cache_control, { type: 'ephemeral' });
    assert.equal(tools[0].description, 'Reads a file');
    assert.deepEqual((tools[0].input_schema as { required: string[] }).required, ['path']);
    assert.deepEqual(body.tool_choice, { type: 'any' });
    assert.equal(body.temperature, 0);
    const last = body.messages[2].content as Array<Record<string, unknown>>;
    assert.equal(last[0].type, 'tool_result');
    assert.equal(last[0].cache_control, undefined);
    assert.deepEqual(last[1].cache_control, { type: 'ephemeral' });
    // The message the previous request ended with keeps its breakpoint, so this request reads that cache entry.
    assert.deepEqual(body.messages[0].content, [{ type: 'text', text: 'Fix it.', cache_control: { type: 'ephemeral' } }]);
    assert.equal(
      typeof body.messages[1].content === 'string' || body.messages[1].content.some((b) => b.cache_control),
      false,
      'the answer carries none',
    );
  });

  it('retries a 429 (SDK retry) and then succeeds', async () => {
    fake.enqueue(httpError(429), text('after the rate limit'));
    const response = await client.complete(request());
    assert.equal(response.content[0].type === 'text' && response.content[0].text, 'after the rate limit');
    assert.equal(fake.requests.length, 2);
  });

  it('retries a 529 overloaded and then succeeds; gives up with a clear error after maxRetries', async () => {
    fake.enqueue(httpError(529), text('recovered'));
    await client.complete(request());
    assert.equal(fake.requests.length, 2);

    const impatient = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 1, logger: captureLogger() });
    fake.enqueue(httpError(529), httpError(529));
    await assert.rejects(impatient.complete(request()), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.kind, 'overloaded');
      assert.equal(error.status, 529);
      assert.match(error.message, /overloaded/);
      return true;
    });
    assert.equal(fake.requests.length, 4);
  });

  it('reports usage with cache tokens and the cost from the price list', async () => {
    fake.enqueue(
      text('cached', { input_tokens: 1000, output_tokens: 500, cache_read_input_tokens: 2000, cache_creation_input_tokens: 3000 }),
    );
    const response = await client.complete(request({ model: 'claude-sonnet-4-6-20260217' }));
    assert.deepEqual(response.usage, {
      inputTokens: 1000,
      outputTokens: 500,
      cacheReadTokens: 2000,
      cacheWriteTokens: 3000,
      // 1000×$3 + 500×$15 + 3000×$3.75 + 2000×$0.30, per million
      costUsd: 0.02235,
    });
  });

  it('counts an unknown model as $0 and warns once', async () => {
    const logger = captureLogger();
    const custom = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, logger });
    fake.enqueue(text('a', { input_tokens: 100 }), text('b', { input_tokens: 100 }));
    const first = await custom.complete(request({ model: 'claude-imaginary-9' }));
    await custom.complete(request({ model: 'claude-imaginary-9' }));
    assert.equal(first.usage.costUsd, 0);
    assert.equal(logger.warnings.filter((line) => line.includes('claude-imaginary-9')).length, 1);
  });

  it('maps a refused key (401) to a configuration error that says so', async () => {
    fake.enqueue(httpError(401, { message: 'invalid x-api-key' }));
    await assert.rejects(client.complete(request()), (error: unknown) => {
      assert.ok(error instanceof ModelAuthenticationError);
      assert.ok(error instanceof ConfigurationError);
      assert.match(error.message, /API key was refused/);
      assert.match(error.message, /invalid x-api-key/);
      return true;
    });
    assert.equal(fake.requests.length, 1, 'a 401 is not retried');
  });

  it('maps a 400 to a bad_request error carrying the API message', async () => {
    fake.enqueue(httpError(400, { message: 'max_tokens: too large' }));
    await assert.rejects(client.complete(request()), /rejected the request \(400\).*max_tokens: too large/);
  });

  it('answers an unscripted request with a loud, non-retried 500', async () => {
    await assert.rejects(client.complete(request()), /no scripted response left/);
    assert.equal(fake.requests.length, 1);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    fake.enqueue(async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50).unref());
      return text('too late');
    });
    await assert.rejects(client.complete(request({ signal: controller.signal })), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.kind, 'cancelled');
      return true;
    });
  });

  it("tells onProgress of every streamed event, reasoning included (the supervisor's heartbeat)", async () => {
    fake.enqueue(
      turn([
        { type: 'thinking', thinking: 'Divide multiplies.', signature: 'sig' },
        { type: 'text', text: 'ok' },
      ]),
    );
    let progress = 0;
    let words = 0;
    await client.complete(request({ onProgress: () => (progress += 1), onText: () => (words += 1) }));
    assert.equal(words, 1);
    // The connection, then message_start, the thinking block (start, 3 deltas, signature, stop), the
    // text block (start, 1 delta, stop), message_delta and message_stop (the SDK passes no ping on).
    assert.equal(progress, 13);
  });

  it('a stream that starts and then hangs: progress until the hang, then a caller who gives up gets a cancel', async () => {
    fake.enqueue(hang('start'));
    const controller = new AbortController();
    let progress = 0;
    const call = client.complete(
      request({
        signal: controller.signal,
        // The connection and message_start: then nothing comes, and the caller stops waiting.
        onProgress: () => {
          progress += 1;
          if (progress === 2) controller.abort();
        },
      }),
    );
    await assert.rejects(call, (error: unknown) => error instanceof ModelApiError && error.kind === 'cancelled');
    assert.equal(progress, 2);
  });

  it('also answers non-streaming requests (the fake itself, through the SDK)', async () => {
    fake.enqueue(turn([{ type: 'text', text: 'plain' }], { usage: { input_tokens: 3, output_tokens: 1 } }));
    const sdk = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const message = await sdk.messages.create({ model: DEFAULT_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.content[0].type, 'text');
    assert.equal(message.usage.input_tokens, 3);
    assert.equal(fake.requests[0].body.stream, undefined);
  });

  describe('the anthropic provider from the environment (createModelClient)', () => {
    it('refuses to start without a key, naming the variable', () => {
      assert.throws(
        () => createModelClient({ provider: 'anthropic', env: { ANTHROPIC_API_KEY: '  ' } }),
        (error: unknown) => error instanceof ConfigurationError && /No Anthropic API key: set ANTHROPIC_API_KEY/.test(error.message),
      );
    });

    it('uses ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment', async () => {
      const fromEnv = createModelClient({
        provider: 'anthropic',
        env: { ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: fake.url },
        logger: captureLogger(),
      });
      fake.enqueue(text('from env'));
      const response = await fromEnv.complete(request());
      assert.equal(response.content[0].type, 'text');
      const auth = fake.requests[0].headers['x-api-key'] ?? fake.requests[0].headers.authorization;
      assert.match(auth, /sk-env/);
    });
  });

  it('drives the planner end to end: tool results go back, the conversation prefix is cached', async () => {
    const root = await copyCalculator();
    try {
      fake.enqueue(
        toolUse(
          'read_file',
          { path: CALCULATOR_SOURCE },
          { id: 'toolu_read', text: 'Reading the calculator.', usage: { input_tokens: 900, cache_creation_input_tokens: 1500 } },
        ),
        toolUse(
          'submit_plan',
          {
            spec: 'Divide returns a / b.',
            plan: {
              summary: 'Fix Divide',
              steps: [{ number: 1, description: 'Use /', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' }],
              complexity: 'LOW',
            },
          },
          { usage: { input_tokens: 300, cache_read_input_tokens: 1500, output_tokens: 60 } },
        ),
      );
      const rt = await agentRuntime(root, client);
      const result = await runPlanner(rt, { request: 'Fix the failing Divide test' });
      assert.deepEqual(result.plan.affectedFiles, [CALCULATOR_SOURCE]);
      assert.equal(result.usage.cacheWriteTokens, 1500);
      assert.equal(result.usage.cacheReadTokens, 1500);
      assert.ok(result.usage.costUsd > 0);

      const [first, second] = fake.requests.map((request) => request.body);
      assert.deepEqual(second.system, first.system, 'the system prompt is the same on every turn');
      assert.deepEqual(second.tools, first.tools, 'the tools are the same on every turn');
      assert.equal(second.messages.length, 3);
      const results = second.messages[2].content as Array<Record<string, unknown>>;
      assert.equal(results[0].type, 'tool_result');
      assert.equal(results[0].tool_use_id, 'toolu_read');
      assert.match(String(results[0].content), /return a \* b;/);
      assert.deepEqual(results[0].cache_control, { type: 'ephemeral' });
      const assistant = second.messages[1].content as Array<Record<string, unknown>>;
      assert.deepEqual(
        assistant.map((block) => block.type),
        ['text', 'tool_use'],
      );
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
