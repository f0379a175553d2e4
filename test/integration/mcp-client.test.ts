// The MCP client against real servers from npm and a misbehaving fixture, over stdio, through the
// same ToolRegistry adapter the agents use.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { McpManager } from '../../src/core/mcp/manager';
import { mcpServersFromSettings } from '../../src/core/mcp/config';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { ToolDefinition } from '../../src/core/tools/types';
import { memoryHost, toolContext } from '../unit/tools/memory-host';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = (name: string): string => path.join(ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
const FAULTS = path.join(__dirname, 'mcp-fixtures', 'fault-server.mjs');

describe('MCP client (real servers over stdio)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'ironbees-mcp-client-'));
  const host = memoryHost();
  const servers = mcpServersFromSettings({
    everything: { command: process.execPath, args: [pkg('server-everything'), 'stdio'] },
    memory: { command: process.execPath, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
    filesystem: { command: process.execPath, args: [pkg('server-filesystem'), dir] },
    faults: { command: process.execPath, args: [FAULTS], cwd: ROOT, timeoutMs: 1500 },
    broken: { command: path.join(dir, 'no-such-command') },
  });
  const manager = new McpManager({ servers, logger: host.logger });
  const registry = new ToolRegistry().addSource(manager);
  const ctx = toolContext(host);
  const tool = async (name: string): Promise<ToolDefinition> => (await registry.forAgentAsync([name]))[0];

  after(async () => {
    await manager.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('server-everything: echo, with arguments coerced', async () => {
    const outcome = await registry.execute(await tool('mcp__everything__echo'), { message: 'hello' }, ctx);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.match(outcome.content, /hello/);
    const sum = await registry.execute(await tool('mcp__everything__get-sum'), { a: '2', b: 3 }, ctx);
    assert.ok(sum.ok && /5/.test(sum.content), JSON.stringify(sum));
  });

  it('server-memory: write an entity, read it back', async () => {
    const create = await registry.execute(
      await tool('mcp__memory__create_entities'),
      { entities: [{ name: 'Calc', entityType: 'class', observations: ['adds'] }] },
      ctx,
    );
    assert.ok(create.ok, JSON.stringify(create));
    const read = await registry.execute(await tool('mcp__memory__read_graph'), {}, ctx);
    assert.ok(read.ok && /Calc/.test(read.content), JSON.stringify(read));
  });

  it('server-filesystem: writes and lists inside its root', async () => {
    const write = await registry.execute(await tool('mcp__filesystem__write_file'), { path: path.join(dir, 'a.txt'), content: 'hi' }, ctx);
    assert.ok(write.ok, JSON.stringify(write));
    const list = await registry.execute(await tool('mcp__filesystem__list_directory'), { path: dir }, ctx);
    assert.ok(list.ok && /a\.txt/.test(list.content), JSON.stringify(list));
  });

  it('bad arguments are InvalidInput naming the field; an unknown tool is NotFound listing the tools', async () => {
    const bad = await registry.execute(await tool('mcp__faults__echo'), { text: 5 }, ctx);
    assert.ok(!bad.ok && bad.kind === 'InvalidInput' && /text/.test(bad.error) && /times/.test(bad.error), JSON.stringify(bad));
    const unknown = await registry.execute(await tool('mcp__faults__nope'), {}, ctx);
    assert.ok(!unknown.ok && unknown.kind === 'NotFound' && /mcp__faults__echo/.test(unknown.error), JSON.stringify(unknown));
    const noServer = await registry.execute(await tool('mcp__ghost__x'), {}, ctx);
    assert.ok(!noServer.ok && noServer.kind === 'NotFound' && /no MCP server named "ghost"/.test(noServer.error));
  });

  it('a server that never answers times out; one that crashes mid-call is an error and is restarted', async () => {
    const started = Date.now();
    const hang = await registry.execute(await tool('mcp__faults__hang'), {}, ctx);
    assert.ok(!hang.ok && hang.kind === 'Timeout', JSON.stringify(hang));
    assert.ok(Date.now() - started < 10_000);
    const crash = await registry.execute(await tool('mcp__faults__crash'), {}, ctx);
    assert.ok(!crash.ok && crash.kind === 'RetryableServer' && /closed the connection|crashed/.test(crash.error), JSON.stringify(crash));
    assert.match(host.logger.lines.join('\n'), /\[mcp faults\] about to crash/);
    const after = await registry.execute(await tool('mcp__faults__echo'), { text: 'ok', times: '2' }, ctx);
    assert.ok(after.ok && after.content.startsWith('okok'), JSON.stringify(after));
  });

  it('a huge output is paged with a next-page affordance, and the next page comes from the kept result', async () => {
    const huge = await tool('mcp__faults__huge');
    const first = await registry.execute(huge, {}, ctx);
    assert.ok(first.ok && first.content.length < 100_500 && /page 1 of 3/.test(first.content), 'capped');
    assert.ok(first.ok && first.observation?.affordances.some((a) => /"resultPage":2/.test(a)));
    const second = await registry.execute(huge, { resultPage: 2 }, ctx);
    assert.ok(second.ok && /page 2 of 3/.test(second.content));
  });

  it('a server that will not start is a clear error for its tools only', async () => {
    const broken = await registry.execute(await tool('mcp__broken__anything'), {}, ctx);
    assert.ok(!broken.ok && /MCP server "broken"/.test(broken.error), JSON.stringify(broken));
    const fine = await registry.execute(await tool('mcp__everything__echo'), { message: 'still here' }, ctx);
    assert.ok(fine.ok);
  });
});
