// Fallback with a circuit breaker, under a scripted outage: the real Anthropic SDK against a fake
// Messages API that answers 529 (overloaded), the real openai SDK against the fake Chat
// Completions server as the fallback. The conversation is carried over; the breaker opens after
// two outages, skips the primary while open, and tries it again after the cool-down.

import assert from 'node:assert/strict';
import { AnthropicModelClient } from '../../src/core/llm/providers/anthropic/anthropic';
import { OpenAIModelClient } from '../../src/core/llm/providers/openai/client';
import { CircuitBreaker, FallbackModelClient } from '../../src/core/llm/providers/fallback';
import { ProviderRouter } from '../../src/core/llm/providers/router';
import { ModelAuthenticationError } from '../../src/core/llm/errors';
import type { ModelRequest } from '../../src/core/llm/port';
import { httpError, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chatText, startFakeOpenAI } from '../support/fake-openai';
import type { FakeOpenAI } from '../support/fake-openai';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const REQUEST: ModelRequest = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  system: 'You are the planner.',
  tools: [],
  messages: [
    { role: 'user', content: 'Plan the fix.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
    { role: 'user', content: 'Go on.' },
  ],
  maxTokens: 500,
};

describe('fallback provider with a circuit breaker (real SDKs, scripted outage)', function () {
  this.timeout(30_000);
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  let now: number;
  let switches: string[];
  let client: FallbackModelClient;

  beforeEach(async () => {
    anthropic = await startFakeAnthropic();
    openai = await startFakeOpenAI();
    now = 1_000_000;
    switches = [];
    const router = new ProviderRouter({
      // One retry per call: each outage costs two 529s.
      anthropic: () => new AnthropicModelClient({ apiKey: 'sk-test', baseURL: anthropic.url, maxRetries: 1, logger: silent }),
      openai: () => new OpenAIModelClient({ apiKey: 'k', baseURL: openai.url, maxRetries: 0, logger: silent }),
    });
    client = new FallbackModelClient(
      router,
      router,
      { provider: 'openai', model: 'local-backup' },
      new CircuitBreaker({ failureThreshold: 2, cooldownMs: 60_000, now: () => now }),
      (m) => switches.push(m),
    );
  });
  afterEach(async () => {
    await anthropic.close();
    await openai.close();
  });

  it('switches after the retries, carries the conversation, opens the circuit, and goes back after the cool-down', async () => {
    anthropic.enqueue(httpError(529), httpError(529));
    openai.enqueue(chatText('plan from the backup'));
    const first = await client.complete(REQUEST);
    assert.deepEqual(first.content, [{ type: 'text', text: 'plan from the backup' }]);
    assert.equal(first.fallback?.from, 'anthropic/claude-sonnet-4-6');
    assert.equal(first.fallback?.to, 'openai/local-backup');
    assert.match(first.fallback?.reason ?? '', /overloaded \(529\) even after retries/);
    assert.equal(anthropic.requests.length, 2, 'the primary retried once before the switch');
    const carried = openai.requests[0].body;
    assert.equal(carried.model, 'local-backup');
    assert.deepEqual(
      carried.messages.map((m) => [m.role, m.content]),
      [
        ['system', 'You are the planner.'],
        ['user', 'Plan the fix.'],
        ['assistant', 'Looking.'],
        ['user', 'Go on.'],
      ],
    );
    assert.deepEqual(switches, ['Model calls switched to the fallback openai/local-backup: ' + (first.fallback?.reason ?? '')]);

    // A second outage opens the circuit; the call after it does not touch the primary at all.
    anthropic.enqueue(httpError(529), httpError(529));
    openai.enqueue(chatText('second'), chatText('third'));
    await client.complete(REQUEST);
    assert.equal(anthropic.requests.length, 4);
    const third = await client.complete(REQUEST);
    assert.equal(anthropic.requests.length, 4, 'circuit open: the primary is skipped');
    assert.match(third.fallback?.reason ?? '', /circuit is open/);

    // After the cool-down the primary is tried again, and answers.
    now += 60_000;
    anthropic.enqueue(text('primary is back'));
    const back = await client.complete(REQUEST);
    assert.deepEqual(back.content, [{ type: 'text', text: 'primary is back' }]);
    assert.equal(back.fallback, undefined);
    assert.equal(switches.at(-1), 'Model calls are back on anthropic/claude-sonnet-4-6.');
    assert.equal(switches.length, 2, 'told once each way, not on every call');
  });

  it('a refused key is not an outage: it is reported, not hidden behind the fallback', async () => {
    anthropic.enqueue(httpError(401));
    await assert.rejects(client.complete(REQUEST), (error: unknown) => error instanceof ModelAuthenticationError);
    assert.equal(openai.requests.length, 0);
  });
});
