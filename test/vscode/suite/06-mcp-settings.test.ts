// MCP servers from the "ironbees.mcpServers" setting: a real server from npm (server-memory, over
// stdio) reached through the runtime the extension builds, with the same adapter as built-in tools;
// a bad entry is a clear configuration error before any run starts.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createExtensionRuntime } from '../../../src/extension/runtime';
import type { ExtensionRuntime } from '../../../src/extension/runtime';
import { readSettings } from '../../../src/extension/settings';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createDemoModelClient } from '../../../src/core/llm/providers/demo/demo-model';
import type { Logger } from '../../../src/core/host';
import { setSetting, workspaceRoot } from './helpers';

const extensionPath = (): string => vscode.extensions.getExtension('ironbees.ironbees-agent-mode')?.extensionPath ?? '';
const serverMemory = (): string => path.join(extensionPath(), 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

const logged: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (message) => void logged.push(message),
  warn: (message) => void logged.push(message),
  error: (message) => void logged.push(message),
};

function runtime(): Promise<ExtensionRuntime> {
  const root = workspaceRoot();
  return createExtensionRuntime({
    workspaceRoot: root,
    trusted: false,
    settings: readSettings(),
    apiKey: undefined,
    extensionPath: extensionPath(),
    logger,
    model: createDemoModelClient(),
  });
}

describe('MCP servers from the settings (real extension host)', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-vscode-mcp-'));

  after(async () => {
    await setSetting('mcpServers', undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts a configured server on first use and calls its tools through the adapter', async () => {
    assert.ok(fs.existsSync(serverMemory()), `server-memory is installed at ${serverMemory()}`);
    await setSetting('mcpServers', {
      memory: {
        command: process.execPath,
        args: [serverMemory()],
        env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl'), ELECTRON_RUN_AS_NODE: '1' },
      },
    });
    const built = await runtime();
    try {
      const [create, read] = await built.tools.forAgentAsync(['mcp__memory__create_entities', 'mcp__memory__read_graph']);
      const ctx = { host: built.host, overlay: new StagedOverlay(built.host) };
      const created = await built.tools.execute(
        create,
        { entities: [{ name: 'Calculator', entityType: 'class', observations: ['divides'] }] },
        ctx,
      );
      assert.ok(created.ok, JSON.stringify(created));
      const graph = await built.tools.execute(read, {}, ctx);
      assert.ok(graph.ok && graph.content.includes('Calculator'), JSON.stringify(graph));
    } finally {
      await built.close();
    }
  });

  it('a server that is not configured is an error for that tool only', async () => {
    const built = await runtime();
    try {
      const [missing] = await built.tools.forAgentAsync(['mcp__nowhere__anything']);
      const outcome = await built.tools.execute(missing, {}, { host: built.host, overlay: new StagedOverlay(built.host) });
      assert.equal(outcome.ok, false);
      assert.match(outcome.ok ? '' : outcome.error, /no MCP server named "nowhere"/);
    } finally {
      await built.close();
    }
  });

  it('a bad entry names the setting, the server and the field before any run starts', async () => {
    await setSetting('mcpServers', { docs: { args: ['x'] } });
    await assert.rejects(runtime(), /setting "ironbees\.mcpServers": server "docs": command/);
  });
});
