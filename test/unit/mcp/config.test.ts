// MCP server configuration from the settings and `.ironbees/mcp.json`: every problem names where it
// was written, the server and the field; nothing half-valid gets through.

import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import { loadWorkspaceMcpConfig, mcpServersFromSettings, mergeMcpServers } from '../../../src/core/mcp/config';

describe('MCP server configuration', () => {
  it('reads stdio and http servers, skips disabled ones and resolves cwd against the workspace', () => {
    const servers = mcpServersFromSettings(
      {
        docs: { command: 'npx', args: ['docs-server'], cwd: 'tools' },
        api: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { authorization: 'Bearer x' } },
        off: { command: 'nothing', disabled: true },
      },
      'settings',
      '/ws',
    );
    assert.deepEqual(
      servers.map((server) => server.name),
      ['docs', 'api'],
    );
    assert.deepEqual(servers[0], { name: 'docs', command: 'npx', args: ['docs-server'], cwd: path.resolve('/ws', 'tools') });
    assert.equal(servers[1].type, 'http');
  });

  it('names the source, the server and the field of each problem', () => {
    const bad = (): unknown =>
      mcpServersFromSettings(
        {
          docs: { args: ['x'] },
          api: { type: 'http', url: 'not a url' },
          'bad name!': { command: 'x' },
          odd: 'npx server',
          extra: { command: 'x', colour: 'red' },
        },
        'setting "ironbees.mcpServers"',
      );
    assert.throws(bad, (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      const lines = error.message.split('\n');
      assert.match(lines.find((line) => line.includes('"docs"')) ?? '', /^setting "ironbees\.mcpServers": server "docs": command: /);
      assert.match(lines.find((line) => line.includes('"api"')) ?? '', /server "api": url: expected an http\(s\) URL/);
      assert.match(lines.find((line) => line.includes('bad name!')) ?? '', /expected a name of letters/);
      assert.match(lines.find((line) => line.includes('"odd"')) ?? '', /expected a stdio server/);
      assert.match(lines.find((line) => line.includes('"extra"')) ?? '', /colour/);
      return true;
    });
  });

  it('an unknown transport type is reported on the type field', () => {
    assert.throws(() => mcpServersFromSettings({ s: { type: 'sse', url: 'http://127.0.0.1/sse' } }), /server "s": type: expected "http"/);
  });

  describe('.ironbees/mcp.json', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(path.join(tmpdir(), 'ironbees-mcp-config-'));
      mkdirSync(path.join(root, '.ironbees'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const write = (text: string): void => writeFileSync(path.join(root, '.ironbees', 'mcp.json'), text);

    it('is optional', async () => {
      rmSync(path.join(root, '.ironbees'), { recursive: true });
      assert.deepEqual(await loadWorkspaceMcpConfig(root), []);
    });

    it('says when it is not JSON or lacks mcpServers', async () => {
      write('{ "mcpServers": ');
      await assert.rejects(loadWorkspaceMcpConfig(root), /mcp\.json: not valid JSON/);
      write('{ "servers": {} }');
      await assert.rejects(loadWorkspaceMcpConfig(root), /expected \{ "mcpServers"/);
    });

    it('overrides a settings server of the same name', async () => {
      write(JSON.stringify({ mcpServers: { docs: { command: 'local-docs' } } }));
      const merged = mergeMcpServers(
        mcpServersFromSettings({ docs: { command: 'global-docs' }, other: { command: 'o' } }),
        await loadWorkspaceMcpConfig(root),
      );
      assert.deepEqual(
        merged.map((server) => [server.name, 'command' in server ? server.command : '']),
        [
          ['docs', 'local-docs'],
          ['other', 'o'],
        ],
      );
    });
  });
});
