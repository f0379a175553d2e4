import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolFailure } from '../../../src/core/tools/failure';
import { fullJitterDelay } from '../../../src/core/tools/retry';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { memoryHost, toolContext } from './memory-host';

const base = { description: 'd', input: z.object({}), readonly: true, timeoutMs: 1000 };

describe('tool adapter (seed 004)', () => {
  const ctx = toolContext(memoryHost());

  it('retries only retryable failures, with full-jitter delays inside the cap', async () => {
    let calls = 0;
    const flaky: ToolDefinition = { ...base, name: 'flaky', retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 }, execute: async () => {
      calls++;
      if (calls < 3) throw new ToolFailure('RetryableServer', 'busy');
      return { ok: true, content: 'done' };
    } };
    assert.ok((await new ToolRegistry().register(flaky).execute(flaky, {}, ctx)).ok);
    assert.equal(calls, 3);
    let unauthorized = 0;
    const denied: ToolDefinition = { ...base, name: 'denied', retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 }, execute: async () => {
      unauthorized++;
      throw new ToolFailure('Unauthorized', 'no');
    } };
    const outcome = await new ToolRegistry().register(denied).execute(denied, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'Unauthorized');
    assert.equal(unauthorized, 1);
    assert.equal(fullJitterDelay({ maxRetries: 1, baseDelayMs: 100, maxDelayMs: 300 }, 5, () => 0.999), 299);
    assert.equal(fullJitterDelay({ maxRetries: 1, baseDelayMs: 100, maxDelayMs: 300 }, 0, () => 0.5), 50);
  });

  it('checks the output schema: a mismatch is OutputSchemaMismatch', async () => {
    const typed: ToolDefinition = { ...base, name: 'typed', output: z.object({ n: z.number() }), execute: async () => ({ ok: true, content: '{"n":"x"}' }) };
    const outcome = await new ToolRegistry().register(typed).execute(typed, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'OutputSchemaMismatch' && /n:/.test(outcome.error));
  });

  it('asks before a tool with external effects runs; read-only tools never ask', async () => {
    let ran = 0;
    const writes: ToolDefinition = { ...base, name: 'writes', readonly: false, externalEffects: true, execute: async () => ({ ok: (ran++, true), content: 'x' }) };
    const registry = new ToolRegistry().register(writes);
    const refused = await registry.execute(writes, {}, { ...ctx, approval: { policy: 'always', ask: async () => ({ approved: false, reason: 'no' }) } });
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
});
