import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolFailure, guessKindFromMessage, retryAfterFromMessage } from '../../../src/core/tools/failure';
import { fullJitterDelay } from '../../../src/core/tools/retry';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { memoryHost, toolContext } from './memory-host';

const base = { description: 'd', input: z.object({}), readonly: true, timeoutMs: 1000 };

describe('tool adapter (seed 004)', () => {
  const ctx = toolContext(memoryHost());

  it('retries only retryable failures, with full-jitter delays inside the cap', async () => {
    let calls = 0;
    const flaky: ToolDefinition = {
      ...base,
      name: 'flaky',
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 },
      execute: async () => {
        calls++;
        if (calls < 3) throw new ToolFailure('RetryableServer', 'busy');
        return { ok: true, content: 'done' };
      },
    };
    assert.ok((await new ToolRegistry().register(flaky).execute(flaky, {}, ctx)).ok);
    assert.equal(calls, 3);
    let unauthorized = 0;
    const denied: ToolDefinition = {
      ...base,
      name: 'denied',
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 },
      execute: async () => {
        unauthorized++;
        throw new ToolFailure('Unauthorized', 'no');
      },
    };
    const outcome = await new ToolRegistry().register(denied).execute(denied, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'Unauthorized');
    assert.equal(unauthorized, 1);
    assert.equal(
      fullJitterDelay({ maxRetries: 1, baseDelayMs: 100, maxDelayMs: 300 }, 5, () => 0.999),
      299,
    );
    assert.equal(
      fullJitterDelay({ maxRetries: 1, baseDelayMs: 100, maxDelayMs: 300 }, 0, () => 0.5),
      50,
    );
  });

  it("a time limit stops the work, not only the wait: the tool's signal is aborted when the limit fires", async () => {
    let seen: AbortSignal | undefined;
    const slow: ToolDefinition = {
      ...base,
      name: 'slow',
      timeoutMs: 50,
      execute: (_input, context) => {
        seen = context.signal;
        return new Promise(() => undefined);
      },
    };
    const outcome = await new ToolRegistry().register(slow).execute(slow, {}, ctx);
    assert.deepEqual(outcome.ok ? null : { kind: outcome.kind, error: outcome.error }, {
      kind: 'Timeout',
      error: 'slow timed out after 50 ms; ask for less at once (a narrower path, pattern or query).',
    });
    assert.equal(seen?.aborted, true);
  });

  it('checks the output schema: a mismatch is OutputSchemaMismatch', async () => {
    const typed: ToolDefinition = {
      ...base,
      name: 'typed',
      output: z.object({ n: z.number() }),
      execute: async () => ({ ok: true, content: '{"n":"x"}' }),
    };
    const outcome = await new ToolRegistry().register(typed).execute(typed, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'OutputSchemaMismatch' && /n:/.test(outcome.error));
  });

  it('asks before a tool with external effects runs; read-only tools never ask', async () => {
    let ran = 0;
    const writes: ToolDefinition = {
      ...base,
      name: 'writes',
      readonly: false,
      externalEffects: true,
      execute: async () => ({ ok: (ran++, true), content: 'x' }),
    };
    const registry = new ToolRegistry().register(writes);
    const refused = await registry.execute(
      writes,
      {},
      { ...ctx, approval: { policy: 'always', ask: async () => ({ approved: false, reason: 'no' }) } },
    );
    assert.ok(!refused.ok && refused.kind === 'Forbidden');
    assert.equal(ran, 0);
    assert.ok((await registry.execute(writes, {}, { ...ctx, approval: { policy: 'never' } })).ok);
    const reads: ToolDefinition = { ...base, name: 'reads', execute: async () => ({ ok: true, content: 'r' }) };
    assert.ok((await new ToolRegistry().register(reads).execute(reads, {}, { ...ctx, approval: { policy: 'always' } })).ok);
  });

  it('normalises the observation: summary, keyFacts, affordances', async () => {
    const t: ToolDefinition = { ...base, name: 't', execute: async () => ({ ok: true, content: 'First line\nmore' }) };
    const outcome = await new ToolRegistry().register(t).execute(t, {}, ctx);
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.observation, { summary: 'First line', keyFacts: {}, affordances: [] });
  });

  it("waits as long as a RateLimited failure's Retry-After says, within the policy's ceiling", async () => {
    const host = memoryHost();
    let calls = 0;
    const limited: ToolDefinition = {
      ...base,
      name: 'limited',
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 40 },
      execute: async () => {
        calls++;
        if (calls === 1) throw new ToolFailure('RateLimited', 'slow down', 25);
        if (calls === 2) throw new ToolFailure('RateLimited', 'slower', 5_000);
        return { ok: true, content: 'done' };
      },
    };
    const outcome = await new ToolRegistry({ random: () => 0 }).register(limited).execute(limited, {}, toolContext(host));
    assert.ok(outcome.ok);
    const waits = host.logger.lines.filter((line) => /tool limited: RateLimited, retry/.test(line));
    assert.deepEqual(
      waits.map((line) => /in (\d+) ms/.exec(line)?.[1]),
      ['25', '40'],
      'Retry-After, then capped at maxDelayMs (random() = 0 would have meant 0)',
    );
    const exhausted: ToolDefinition = {
      ...limited,
      name: 'exhausted',
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
      execute: async () => {
        throw new ToolFailure('RateLimited', 'still limited', 3);
      },
    };
    const failed = await new ToolRegistry().register(exhausted).execute(exhausted, {}, ctx);
    assert.deepEqual(failed, { ok: false, kind: 'RateLimited', error: 'still limited', retryAfterMs: 3 });
  });

  it('an empty answer is NoResults and is not retried', async () => {
    let calls = 0;
    const empty: ToolDefinition = {
      ...base,
      name: 'empty',
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 2 },
      execute: async () => (calls++, { ok: false, error: 'no matches for "Frobnicate"' }),
    };
    const outcome = await new ToolRegistry().register(empty).execute(empty, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'NoResults');
    assert.equal(calls, 1);
  });
});

describe('guessKindFromMessage (tool and MCP isError text)', () => {
  const cases: Array<[string, string]> = [
    ['Rate limited: slow down', 'RateLimited'],
    ['Error: 429 Too Many Requests', 'RateLimited'],
    ['Request failed with status code 429', 'RateLimited'],
    ['Unauthorized', 'Unauthorized'],
    ['HTTP 401: bad token', 'Unauthorized'],
    ['403 Forbidden', 'Forbidden'],
    ['upstream answered status 403', 'Forbidden'],
    ['the request timed out', 'Timeout'],
    ['Timeout waiting for the index', 'Timeout'],
    ['Service temporarily unavailable', 'RetryableServer'],
    ['HTTP 503', 'RetryableServer'],
    ['No such file: a.cs', 'NotFound'],
    ['no matches for "x"', 'NoResults'],
    ['[Forbidden] from an Ironbees server', 'Forbidden'],
    ['line 401 of Calc.cs: expected ";"', 'InvalidInput'],
    ['500 items are too many; ask for fewer', 'InvalidInput'],
  ];
  for (const [message, kind] of cases) {
    it(`${JSON.stringify(message)} → ${kind}`, () => assert.equal(guessKindFromMessage(message), kind));
  }

  it('reads a retry-after from the text, in milliseconds', () => {
    assert.equal(retryAfterFromMessage('429: Retry-After: 30'), 30_000);
    assert.equal(retryAfterFromMessage('rate limited, retry after 500 ms'), 500);
    assert.equal(retryAfterFromMessage('rate limited'), undefined);
  });
});
