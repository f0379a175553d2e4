// The Ironbees MCP HTTP server's guards, on a real socket: it binds 127.0.0.1 only, refuses a missing
// or short token from any source (the CLI included), answers no Authorization header with 401 (on
// GET and DELETE of a live session too), malformed JSON with 400 and a body over the limit with 413,
// and drops a session left idle.

import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConfigurationError } from '../../src/core/errors';
import { startHttpMcpServer } from '../../src/mcp-server/http';
import type { HttpMcpOptions, RunningHttpMcp } from '../../src/mcp-server/http';
import { ensureCliBuilt, removeDir, runCli, until } from '../support/cli-harness';
import { memoryHost } from '../unit/tools/memory-host';

const TOKEN = 'sixteen-chars-ok';
const host = memoryHost();

function options(overrides: Partial<HttpMcpOptions> = {}): HttpMcpOptions {
  return {
    port: 0,
    token: TOKEN,
    logger: host.logger,
    createServer: () => new McpServer({ name: 'hardening', version: '1.0.0' }).server,
    ...overrides,
  };
}

const tokenRefusal = (got: string): string =>
  `The MCP HTTP server needs a bearer token of at least 16 characters (got ${got}); give a longer --token or IRONBEES_MCP_TOKEN, or set neither to have a random one made.`;

describe('MCP HTTP server hardening', function () {
  this.timeout(60_000);
  let running: RunningHttpMcp;
  before(async () => {
    running = await startHttpMcpServer(options({ sessionIdleMs: 300 }));
  });
  after(() => running?.close());

  it('listens on 127.0.0.1 only, as the socket reports it', () => {
    assert.deepEqual(running.address, { address: '127.0.0.1', family: 'IPv4', port: running.address.port });
    assert.equal(running.url, `http://127.0.0.1:${running.address.port}/mcp`);
  });

  it('refuses to start with a missing or short token', async () => {
    for (const [token, got] of [
      [undefined, 'none'],
      ['', 'none'],
      ['fifteen-chars-x', '15'],
    ] as const) {
      await assert.rejects(startHttpMcpServer(options({ token })), (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.equal(error.message, tokenRefusal(got));
        return true;
      });
    }
  });

  it('answers a request without an Authorization header with 401', async () => {
    const response = await fetch(running.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await response.json(), { error: 'unauthorized: a valid bearer token is required' });
  });

  it('answers malformed JSON with 400 and a JSON-RPC parse error', async () => {
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", "method": ',
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /^Parse error: the request body is not valid JSON \(/);
  });

  it('drops a session left idle; its id is then answered with 404', async () => {
    // One initialize request opens the session; nothing follows it, so its idleness does not depend on timing.
    const init = await fetch(running.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'idle', version: '1' } },
      }),
    });
    assert.equal(init.status, 200);
    await init.text();
    const sessionId = init.headers.get('mcp-session-id') as string;
    assert.match(sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(running.sessionCount(), 1);
    assert.ok(await until(() => running.sessionCount() === 0, 10_000, 50), 'the idle session was closed');
    const response = await fetch(running.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(response.status, 404);
  });

  it('the CLI refuses a short token from --token or IRONBEES_MCP_TOKEN with exit 2', async () => {
    ensureCliBuilt();
    const workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-mcp-token-'));
    try {
      const flag = await runCli(['mcp', '--http', '--port', '0', '--token', 'short', '--workspace', workspace], {});
      assert.equal(flag.code, 2, flag.stderr);
      assert.ok(flag.stderr.startsWith('error: --token must be at least 16 characters.\n'), flag.stderr);
      const env = await runCli(['mcp', '--http', '--port', '0', '--workspace', workspace], { IRONBEES_MCP_TOKEN: 'also-short' });
      assert.equal(env.code, 2, env.stderr);
      assert.ok(env.stderr.includes(tokenRefusal('10')), env.stderr);
    } finally {
      removeDir(workspace);
    }
  });
});

describe('MCP HTTP server: every method needs the token, and the body limit holds', function () {
  this.timeout(60_000);
  let running: RunningHttpMcp;
  let sessionId: string;
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  before(async () => {
    running = await startHttpMcpServer(options());
    const init = await fetch(running.url, {
      method: 'POST',
      headers: { ...headers, Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
      }),
    });
    assert.equal(init.status, 200);
    await init.text();
    sessionId = init.headers.get('mcp-session-id') as string;
  });
  after(() => running?.close());

  it('GET (the event stream) and DELETE (closing a session) of a live session are 401 without the token or with a wrong one', async () => {
    for (const method of ['GET', 'DELETE']) {
      for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, TOKEN]) {
        const response = await fetch(running.url, {
          method,
          headers: { ...headers, 'mcp-session-id': sessionId, ...(authorization ? { Authorization: authorization } : {}) },
        });
        assert.equal(response.status, 401, `${method} with ${authorization ?? 'no Authorization'}`);
        assert.deepEqual(await response.json(), { error: 'unauthorized: a valid bearer token is required' });
      }
    }
    assert.equal(running.sessionCount(), 1, 'the refused DELETE closed nothing');
    const closed = await fetch(running.url, {
      method: 'DELETE',
      headers: { ...headers, 'mcp-session-id': sessionId, Authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(closed.status, 200, 'with the token, DELETE closes the session');
    await closed.text();
  });

  it('a body over 4 MB is refused with 413 before it is parsed', async () => {
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { ...headers, Authorization: `Bearer ${TOKEN}` },
      body: `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(4 * 1024 * 1024)}"}}`,
    });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), {
      jsonrpc: '2.0',
      error: { code: -32700, message: `The request body is larger than ${4 * 1024 * 1024} bytes.` },
      id: null,
    });
  });
});
