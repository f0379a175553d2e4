// Tool input is parsed once, by the registry (the adapter), not by the agent's loop and then again
// by the registry: a schema with a side effect counts its runs. The agent sees results and errors.

import assert from 'node:assert/strict';
import { z } from 'zod';
import { runToolCalls } from '../../../src/core/agents/tool-calls';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createMemoryHost } from '../../support/memory-host';

function countingTool(counter: { parses: number }, received: unknown[]): ToolDefinition<{ n: number }> {
  return {
    name: 'count',
    description: 'Counts.',
    input: z.preprocess(
      (raw) => {
        counter.parses += 1;
        return raw;
      },
      z.object({ n: z.coerce.number() }),
    ),
    readonly: true,
    timeoutMs: 5_000,
    execute: async (input) => {
      received.push(input);
      return { ok: true, content: `n=${input.n}` };
    },
  };
}

describe('tool input parsed once', () => {
  it('a call runs with the input the registry parsed, its schema run once; the page argument never reaches the tool', async () => {
    const counter = { parses: 0 };
    const received: unknown[] = [];
    const host = createMemoryHost();
    const registry = new ToolRegistry().register(countingTool(counter, received));
    const outcome = await runToolCalls([{ type: 'tool_use', id: 't1', name: 'count', input: { n: '7', resultPage: 1 } }], {
      agentName: 'coder',
      tools: new Map([['count', registry.get('count')]]),
      registry,
      context: { host, overlay: new StagedOverlay(host) },
      terminal: { name: 'submit_changes', accept: () => ({ ok: true, value: null }) },
      now: () => 0,
    });
    assert.deepEqual(outcome.results, [{ type: 'tool_result', tool_use_id: 't1', content: 'n=7' }]);
    assert.equal(outcome.malformed, false);
    assert.deepEqual(received, [{ n: 7 }]);
    assert.equal(counter.parses, 1);
  });

  it('bad input is answered from the registry, as an InvalidInput error, without running the tool', async () => {
    const counter = { parses: 0 };
    const received: unknown[] = [];
    const host = createMemoryHost();
    const registry = new ToolRegistry().register(countingTool(counter, received));
    const outcome = await runToolCalls([{ type: 'tool_use', id: 't1', name: 'count', input: { n: 'seven' } }], {
      agentName: 'coder',
      tools: new Map([['count', registry.get('count')]]),
      registry,
      context: { host, overlay: new StagedOverlay(host) },
      terminal: { name: 'submit_changes', accept: () => ({ ok: true, value: null }) },
      now: () => 0,
    });
    assert.equal(outcome.malformed, true);
    assert.equal(outcome.results[0].is_error, true);
    assert.match(outcome.results[0].content, /^\[InvalidInput\] /);
    assert.deepEqual(received, []);
    assert.equal(counter.parses, 1);
  });
});
