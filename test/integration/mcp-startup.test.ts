// MCP servers that do not start cleanly, over stdio through the same ToolRegistry adapter the agents
// use: a tool resolved while its server was down still goes through approval and the server's own
// limits once the server is up; a server that hangs at start is started once for all its tools.
// Start attempts are counted by the fixture (one line per launch), never inferred from wall time.

import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { mcpServersFromSettings } from '../../src/core/mcp/config';
import { McpManager } from '../../src/core/mcp/manager';
import { renderForModel } from '../../src/core/tools/paging';
import { ToolRegistry } from '../../src/core/tools/registry';
import { memoryHost, toolContext } from '../unit/tools/memory-host';

const FIXTURE = path.resolve(__dirname, '..', 'support', 'mcp-fixtures', 'startup-server.mjs');

function launches(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('MCP servers that do not start cleanly', function () {
  this.timeout(60_000);
  let dir: string;
  let manager: McpManager | undefined;
  const host = memoryHost();
  const ctx = toolContext(host);

  beforeEach(() => (dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-mcp-startup-')))));
  afterEach(async () => {
    await manager?.close();
    manager = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function setUp(
    mode: string | undefined,
    extra: Record<string, unknown>,
    startCooldownMs?: number,
  ): { registry: ToolRegistry; launched: string; writes: string } {
    const launched = path.join(dir, 'launches');
    const writes = path.join(dir, 'writes');
    const env = { FIXTURE_LAUNCHES: launched, FIXTURE_WRITES: writes, ...(mode ? { FIXTURE_MODE: mode } : {}) };
    const servers = mcpServersFromSettings({ fixture: { command: process.execPath, args: [FIXTURE], env, ...extra } });
    manager = new McpManager({
      servers,
      workspaceRoot: dir,
      logger: host.logger,
      ...(startCooldownMs !== undefined ? { startCooldownMs } : {}),
    });
    return { registry: new ToolRegistry().addSource(manager), launched, writes };
  }

  it('a tool resolved while its server failed to start is pessimistic, then runs as the real tool: approval, the server time limit', async () => {
    const { registry, launched, writes } = setUp('fail-first', { timeoutMs: 1000 }, 0);
    const [write, slow] = await registry.forAgentAsync(['mcp__fixture__write', 'mcp__fixture__slow']);
    assert.equal(launches(launched), 1, 'both names shared one (failed) start');
    assert.equal(write.readonly, false, 'a stand-in never claims to be read-only');
    assert.equal(write.externalEffects, true);

    const refused = await registry.execute(write, { text: 'x' }, { ...ctx, approval: { policy: 'always' } });
    assert.ok(!refused.ok && refused.kind === 'Forbidden' && /a person must approve/.test(refused.error), JSON.stringify(refused));
    assert.equal(launches(launched), 2, 'the call started the server to learn what the tool is');
    assert.ok(!existsSync(writes), 'the tool with side effects did not run');

    const started = Date.now();
    const timedOut = await registry.execute(slow, {}, ctx);
    assert.ok(!timedOut.ok && timedOut.kind === 'Timeout', JSON.stringify(timedOut));
    assert.ok(Date.now() - started < 15_000, "the server's 1 s limit applied, not the stand-in's");

    const approved = await registry.execute(
      write,
      { text: 'yes' },
      { ...ctx, approval: { policy: 'always', ask: async () => ({ approved: true }) } },
    );
    assert.ok(approved.ok, JSON.stringify(approved));
    assert.equal(readFileSync(writes, 'utf8'), 'yes\n');
  });

  it('a server that hangs at start is started once for all of its tools, and its failure is remembered for a while', async () => {
    const { registry, launched } = setUp('hang', { startupTimeoutMs: 1500 });
    const names = ['a', 'b', 'c', 'd', 'e'].map((tool) => `mcp__fixture__${tool}`);
    const defs = await registry.forAgentAsync(names);
    assert.deepEqual(
      defs.map((def) => def.name),
      names,
    );
    assert.equal(launches(launched), 1, 'five tools, one start attempt');
    for (const def of defs) {
      const outcome = await registry.execute(def, {}, ctx);
      assert.ok(
        !outcome.ok && outcome.kind === 'Timeout' && /did not answer in time when starting/.test(outcome.error),
        JSON.stringify(outcome),
      );
      assert.match(outcome.error, /not tried again for another \d+ s/);
    }
    assert.equal(launches(launched), 1, 'calls within the cooldown do not start it again');
  });

  it('a stdio server without cwd runs in the workspace root', async () => {
    const { registry } = setUp(undefined, {});
    const [where] = await registry.forAgentAsync(['mcp__fixture__where']);
    const outcome = await registry.execute(where, {}, ctx);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(realpathSync(outcome.content.trim()), dir);
  });

  it('two tools that map to the same mcp__ name are refused clearly, naming both', async () => {
    const { registry } = setUp(undefined, {});
    const [clash] = await registry.forAgentAsync(['mcp__fixture__dup_tool']);
    const outcome = await registry.execute(clash, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'ToolBug', JSON.stringify(outcome));
    assert.match(outcome.error, /"dup\.tool", "dup_tool"/);
    assert.match(outcome.error, /Rename one of them on the server/);
    const listed = (await manager!.allTools()).map((def) => def.name);
    assert.ok(listed.includes('mcp__fixture__where') && !listed.includes('mcp__fixture__dup_tool'), listed.join(', '));
  });

  it("an isError text saying 429 is RateLimited, with the server's retry-after, and the model is told the kind", async () => {
    const { registry } = setUp(undefined, {});
    const [limited] = await registry.forAgentAsync(['mcp__fixture__limited']);
    const outcome = await registry.execute(limited, {}, ctx);
    assert.ok(!outcome.ok && outcome.kind === 'RateLimited' && outcome.retryAfterMs === 20, JSON.stringify(outcome));
    assert.match(renderForModel(outcome), /^\[RateLimited\] HTTP 429 Too Many Requests/);
  });
});
