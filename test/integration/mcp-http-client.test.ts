// The MCP client over Streamable HTTP: McpManager against a bearer-token server on 127.0.0.1 (our
// own HTTP transport, serving an SDK McpServer in process). The right header works; a wrong one is
// Unauthorized with a message that says where to look, and does not hold up the tools that work.

import * as assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { mcpServersFromSettings } from '../../src/core/mcp/config';
import { McpManager } from '../../src/core/mcp/manager';
import { startHttpMcpServer } from '../../src/mcp-server/http';
import type { RunningHttpMcp } from '../../src/mcp-server/http';
import { renderForModel } from '../../src/core/tools/paging';
import { ToolRegistry } from '../../src/core/tools/registry';
import { memoryHost, toolContext } from '../unit/tools/memory-host';

const TOKEN = 'right-token-of-enough-length';

describe('MCP client over Streamable HTTP', function () {
  this.timeout(30_000);
  const host = memoryHost();
  const ctx = toolContext(host);
  let running: RunningHttpMcp;
  let manager: McpManager;
  let registry: ToolRegistry;

  before(async () => {
    running = await startHttpMcpServer({
      port: 0,
      token: TOKEN,
      logger: host.logger,
      createServer: () => {
        const server = new McpServer({ name: 'web', version: '1.0.0' });
        server.registerTool(
          'echo',
          { description: 'echoes', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
          async ({ text }) => ({
            content: [{ type: 'text', text: `echo: ${text}` }],
          }),
        );
        return server.server;
      },
    });
    const servers = mcpServersFromSettings({
      web: { type: 'http', url: running.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      wrong: { type: 'http', url: running.url, headers: { Authorization: 'Bearer not-the-token' } },
    });
    manager = new McpManager({ servers, logger: host.logger });
    registry = new ToolRegistry().addSource(manager);
  });

  after(async () => {
    await manager?.close();
    await running?.close();
  });

  it('with the right Authorization header the tool works', async () => {
    const [echo] = await registry.forAgentAsync(['mcp__web__echo']);
    assert.equal(echo.readonly, true, 'the server marks it read-only');
    const outcome = await registry.execute(echo, { text: 'over http' }, ctx);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.content, 'echo: over http');
  });

  it('a wrong Authorization header is Unauthorized, says what to check, and does not block the working server', async () => {
    const [bad, good] = await registry.forAgentAsync(['mcp__wrong__echo', 'mcp__web__echo']);
    const refused = await registry.execute(bad, { text: 'x' }, ctx);
    assert.ok(!refused.ok && refused.kind === 'Unauthorized', JSON.stringify(refused));
    assert.match(refused.error, /MCP server "wrong" answered HTTP 401/);
    assert.match(refused.error, /Authorization header/);
    assert.match(renderForModel(refused), /^\[Unauthorized\] /);
    assert.match(host.logger.lines.join('\n'), /MCP server "wrong" answered HTTP 401/, 'the failed start is logged');

    const fine = await registry.execute(good, { text: 'still here' }, ctx);
    assert.ok(fine.ok && fine.content === 'echo: still here', JSON.stringify(fine));
  });
});
