import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { PathOutsideWorkspaceError, ToolNotFoundError } from '../../../src/core/errors';
import { CODER_TOOL_NAMES, createDefaultToolRegistry, PLANNER_TOOL_NAMES } from '../../../src/core/agents/builtin';
import { ToolFailure } from '../../../src/core/tools/failure';
import { ResultPages, renderForModel } from '../../../src/core/tools/paging';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { bare, memoryHost, toolContext } from './memory-host';
import { functionsCompiledDuring } from '../../support/compiled-functions';

function tool<Input>(
  name: string,
  input: z.ZodType<Input>,
  execute: ToolDefinition<Input>['execute'],
  timeoutMs = 1000,
): ToolDefinition<Input> {
  return { name, description: `the ${name} tool`, input, readonly: true, timeoutMs, execute };
}

const echo = tool('echo', z.object({ text: z.string(), times: z.coerce.number().int().min(1).optional() }), async (input) => ({
  ok: true,
  content: input.text.repeat(input.times ?? 1),
}));

describe('ToolRegistry', () => {
  const ctx = toolContext(memoryHost());

  it('registers, gets and lists tools; refuses duplicates', () => {
    const registry = new ToolRegistry().register(echo);
    assert.equal(registry.get('echo'), echo);
    assert.ok(registry.has('echo'));
    assert.deepEqual(registry.names(), ['echo']);
    assert.throws(() => registry.register(echo), /already registered/);
  });

  it('throws ToolNotFoundError listing the available tools', () => {
    const registry = new ToolRegistry().register(echo);
    assert.throws(
      () => registry.get('nope'),
      (e: unknown) => e instanceof ToolNotFoundError && /Unknown tool "nope"; available: echo/.test(e.message),
    );
    assert.throws(() => registry.forAgent(['echo', 'missing']), ToolNotFoundError);
    assert.deepEqual(registry.forAgent(['echo']), [echo]);
  });

  it('validates and coerces input, naming the field and what was expected', async () => {
    const registry = new ToolRegistry().register(echo);
    assert.deepEqual(bare(await registry.execute(echo, { text: 'ab', times: '2' }, ctx)), { ok: true, content: 'abab' });
    const bad = await registry.execute(echo, { text: 5, times: 0 }, ctx);
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.equal(bad.kind, 'InvalidInput');
      assert.match(
        bad.error,
        /^Invalid arguments for echo:\n- text: Invalid input: expected string, received number\n- times: Too small: expected number to be >=1\n/,
      );
      assert.match(bad.error, /Fix these arguments and call echo again\.$/);
    }
    const missing = await registry.execute(echo, undefined, ctx);
    assert.ok(!missing.ok && /text: Invalid input: expected string, received undefined/.test(missing.error));
  });

  it('turns thrown errors into outcomes: tool errors as they are, bugs logged', async () => {
    const host = memoryHost();
    const refuses = tool('refuses', z.object({}), async () => {
      throw new PathOutsideWorkspaceError('../x', 'it leads outside the workspace');
    });
    const buggy = tool('buggy', z.object({}), async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    const registry = new ToolRegistry().register(refuses).register(buggy);
    assert.deepEqual(await registry.execute(refuses, {}, toolContext(host)), {
      ok: false,
      kind: 'Forbidden',
      error: 'Refused path "../x": it leads outside the workspace',
    });
    assert.deepEqual(await registry.execute(buggy, {}, toolContext(host)), {
      ok: false,
      kind: 'ToolBug',
      error: 'buggy failed: cannot read properties of undefined',
    });
    assert.match(host.logger.lines.join('\n'), /error: tool buggy failed: TypeError: cannot read properties/);
  });

  it('enforces the time limit and aborts the tool signal', async () => {
    let sawAbort = false;
    const slow = tool(
      'slow',
      z.object({}),
      (_input, context) =>
        new Promise((resolve) => {
          context.signal?.addEventListener('abort', () => {
            sawAbort = true;
            setTimeout(() => resolve({ ok: true, content: 'too late' }), 5);
          });
        }),
      30,
    );
    const started = Date.now();
    const outcome = await new ToolRegistry().register(slow).execute(slow, {}, ctx);
    assert.ok(Date.now() - started < 1000);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.match(outcome.error, /slow timed out after 30 ms; ask for less at once/);
    assert.ok(sawAbort);
  });

  it('stops when the run is cancelled, and does not start a tool for a cancelled run', async () => {
    let started = 0;
    const waits = tool('waits', z.object({}), async () => {
      started++;
      return new Promise(() => undefined);
    });
    const registry = new ToolRegistry().register(waits);
    const controller = new AbortController();
    const pending = registry.execute(waits, {}, { ...ctx, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    assert.deepEqual(await pending, { ok: false, kind: 'Cancelled', error: 'waits was stopped: the run was cancelled.' });
    assert.deepEqual(await registry.execute(waits, {}, { ...ctx, signal: controller.signal }), {
      ok: false,
      kind: 'Cancelled',
      error: 'waits was not run: the run was cancelled.',
    });
    assert.equal(started, 1);
  });

  it('pages oversized results and says how to get the next page', async () => {
    const huge = tool('huge', z.object({}), async () => ({ ok: true, content: 'x'.repeat(150_000) }));
    const outcome = await new ToolRegistry().register(huge).execute(huge, {}, ctx);
    assert.ok(
      outcome.ok &&
        outcome.content.length < 100_400 &&
        /page 1 of 2 .*Next page: call huge again with \{"resultPage":2\}/.test(outcome.content),
    );
  });

  it('describes custom tools with JSON Schema and the text editor by its Anthropic type', () => {
    const registry = createDefaultToolRegistry();
    const tools = registry.toModelTools(registry.forAgent(CODER_TOOL_NAMES));
    assert.deepEqual(
      tools.map((t) => t.name),
      [...CODER_TOOL_NAMES],
    );
    assert.deepEqual(
      tools.find((t) => t.kind === 'text_editor'),
      { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' },
    );
    const readFile = tools.find((t) => t.name === 'read_file');
    assert.ok(readFile && readFile.kind === 'custom');
    assert.equal(readFile.inputSchema.$schema, undefined);
    assert.deepEqual(readFile.inputSchema.required, ['path']);
    assert.deepEqual((readFile.inputSchema.properties as Record<string, unknown>).offset, {
      type: 'integer',
      description: 'First line to show, 1-based (default 1)',
    });
    const search = tools.find((t) => t.name === 'search_text');
    assert.ok(search && search.kind === 'custom');
    assert.deepEqual((search.inputSchema.properties as Record<string, unknown>).isRegex, {
      type: 'boolean',
      description: 'Treat query as a JavaScript regular expression (default false)',
    });
  });

  it("makes each tool's JSON Schema once: the next step's tool loop gets the same, frozen, schema", () => {
    const registry = createDefaultToolRegistry();
    const schemaOf = (name: string) => {
      const found = registry.toModelTools(registry.forAgent(CODER_TOOL_NAMES)).find((t) => t.name === name);
      assert.ok(found && found.kind === 'custom');
      return found.inputSchema;
    };
    const first = schemaOf('read_file');
    const second = schemaOf('read_file');
    assert.deepEqual(second, first);
    // The page argument is added to a copy; what lies under it is the one schema made for the tool.
    const pathOf = (schema: Record<string, unknown>) => (schema.properties as Record<string, Record<string, unknown>>).path;
    assert.equal(pathOf(second), pathOf(first));
    assert.ok(Object.isFrozen(pathOf(first)));
    assert.throws(() => {
      pathOf(first).type = 'number';
    }, TypeError);
  });

  it("checks a call's input without compiling the schema (zod's fast path costs more than a few calls save)", async () => {
    const fresh = tool('fresh', z.object({ text: z.string(), nested: z.object({ n: z.coerce.number().int() }) }), async (input) => ({
      ok: true,
      content: `${input.text}${input.nested.n}`,
    }));
    const registry = new ToolRegistry().register(fresh);
    let outcome: Awaited<ReturnType<ToolRegistry['execute']>> | undefined;
    const compiled = await functionsCompiledDuring(async () => {
      outcome = await registry.execute(fresh, { text: 'n=', nested: { n: '3' } }, ctx);
    });
    assert.equal(compiled, 0);
    assert.deepEqual(bare(outcome as NonNullable<typeof outcome>), { ok: true, content: 'n=3' });
    const bad = registry.parseInput(fresh, { text: 'x', nested: { n: 'many' } });
    assert.ok(!bad.ok && bad.outcome.ok === false && /nested\.n: /.test(bad.outcome.error));
  });
});

describe('ToolRegistry: stand-ins and kept pages', () => {
  const ctx = toolContext(memoryHost());

  it('runs a stand-in as the tool it resolves to: that tool is asked about, its time limit applies', async () => {
    let ran = 0;
    const real = tool('mcp__s__write', z.object({ text: z.string() }), async () => (ran++, { ok: true, content: 'written' }), 50);
    const writes: ToolDefinition = { ...real, readonly: false, externalEffects: true };
    let resolved = 0;
    const standIn: ToolDefinition = {
      ...tool('mcp__s__write', z.unknown(), async () => ({ ok: true, content: 'the stand-in must not run itself' }), 30_000),
      readonly: false,
      externalEffects: true,
      resolveDeferred: async () => (resolved++, writes as ToolDefinition),
    };
    const registry = new ToolRegistry();
    const refused = await registry.execute(standIn, { text: 'x' }, { ...ctx, approval: { policy: 'always' } });
    assert.ok(!refused.ok && refused.kind === 'Forbidden', JSON.stringify(refused));
    assert.equal(ran, 0);
    const bad = await registry.execute(standIn, { text: 5 }, ctx);
    assert.ok(!bad.ok && bad.kind === 'InvalidInput' && /text/.test(bad.error), "the real tool's schema checks the input");
    assert.deepEqual(bare(await registry.execute(standIn, { text: 'y' }, { ...ctx, approval: { policy: 'never' } })), {
      ok: true,
      content: 'written',
    });
    assert.equal(resolved, 3, 'resolved on every call');

    const hangs = tool('mcp__s__hang', z.object({}), () => new Promise(() => undefined), 20);
    const started = Date.now();
    const timedOut = await registry.execute({ ...hangs, timeoutMs: 30_000, resolveDeferred: async () => hangs as ToolDefinition }, {}, ctx);
    assert.ok(!timedOut.ok && timedOut.kind === 'Timeout' && /after 20 ms/.test(timedOut.error));
    assert.ok(Date.now() - started < 1000);
  });

  it('a stand-in whose server is still down answers with that failure and its kind', async () => {
    const down: ToolDefinition = {
      ...tool('mcp__down__x', z.unknown(), async () => ({ ok: true, content: 'never' })),
      resolveDeferred: async () => {
        throw new ToolFailure('Unauthorized', 'MCP server "down" answered HTTP 401 when starting');
      },
    };
    assert.deepEqual(await new ToolRegistry().execute(down, {}, ctx), {
      ok: false,
      kind: 'Unauthorized',
      error: 'MCP server "down" answered HTTP 401 when starting',
    });
  });

  it('keeps full results for paging only for a while', () => {
    let now = 0;
    const pages = new ResultPages(1000, () => now);
    pages.set('k', 'full text');
    now = 999;
    assert.equal(pages.get('k'), 'full text');
    now = 2001;
    assert.equal(pages.get('k'), undefined, 'a result older than the limit is gone, so a later run never reads it');
  });

  it('renders for the model: the failure kind first; a paged result without repeating its next-page call; a plain result as it is', async () => {
    assert.equal(renderForModel({ ok: false, kind: 'Timeout', error: 'x timed out' }), '[Timeout] x timed out');
    assert.equal(
      renderForModel({ ok: false, kind: 'RateLimited', error: 'slow down', retryAfterMs: 2000 }),
      '[RateLimited] slow down (the server asks to wait 2 s before trying again)',
    );
    const huge = tool('huge', z.object({ q: z.string() }), async () => ({ ok: true, content: 'x'.repeat(150_000) }));
    const paged = await new ToolRegistry().register(huge).execute(huge, { q: 'a' }, ctx);
    assert.ok(paged.ok && paged.observation?.affordances[0] === 'next_page: call huge again with {"q":"a","resultPage":2}');
    assert.equal(renderForModel(paged), paged.content, 'the page note already says how to get the next page');
    const plain = await new ToolRegistry().register(echo).execute(echo, { text: 'hi\nthere' }, ctx);
    assert.ok(plain.ok);
    assert.equal(renderForModel(plain), 'hi\nthere');
    assert.equal(
      renderForModel({
        ok: true,
        content: '{"errors":3}',
        observation: { summary: 'The build failed with 3 errors.', keyFacts: { errors: 3 }, affordances: ['details: call diagnostics'] },
      }),
      'Summary: The build failed with 3 errors.\nKey facts: errors=3\n\n{"errors":3}\n[Next: details: call diagnostics]',
    );
  });
});

describe('createDefaultToolRegistry', () => {
  it('registers every contract tool under its contract name', () => {
    const registry = createDefaultToolRegistry();
    assert.deepEqual(registry.names(), [
      'check_code',
      'find_references',
      'find_symbols',
      'list_files',
      'read_file',
      'search_text',
      'str_replace_based_edit_tool',
      'submit_changes',
      'submit_plan',
      'submit_review',
    ]);
    assert.deepEqual(PLANNER_TOOL_NAMES, ['read_file', 'list_files', 'search_text', 'find_symbols', 'find_references', 'submit_plan']);
    for (const name of PLANNER_TOOL_NAMES) assert.ok(registry.get(name).readonly, `${name} must be read-only`);
    assert.equal(registry.get('str_replace_based_edit_tool').readonly, false);
  });
});
