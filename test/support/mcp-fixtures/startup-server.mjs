// An MCP server (stdio) for start-up faults and the adapter's edges. Each launch appends a line to
// $FIXTURE_LAUNCHES before anything else, so a test counts start attempts rather than timing them.
//   FIXTURE_MODE=fail-first  the first launch exits before the handshake; later launches serve
//   FIXTURE_MODE=hang        reads the handshake and never answers it
//   (unset)                  serves
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const launches = process.env.FIXTURE_LAUNCHES;
const earlier = launches && existsSync(launches) ? readFileSync(launches, 'utf8').split('\n').filter(Boolean).length : 0;
if (launches) appendFileSync(launches, `${process.pid}\n`);
const mode = process.env.FIXTURE_MODE ?? 'serve';

if (mode === 'fail-first' && earlier === 0) {
  process.stderr.write('first start fails on purpose\n');
  process.exit(1);
}

if (mode === 'hang') {
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  const server = new McpServer({ name: 'startup', version: '1.0.0' });
  const readOnly = { annotations: { readOnlyHint: true } };
  // No readOnlyHint: a tool with side effects, which must go through approval.
  server.registerTool('write', { description: 'appends text to $FIXTURE_WRITES', inputSchema: { text: z.string() } }, async ({ text }) => {
    appendFileSync(process.env.FIXTURE_WRITES ?? '/dev/null', `${text}\n`);
    return { content: [{ type: 'text', text: 'written' }] };
  });
  server.registerTool('where', { description: 'the working directory', inputSchema: {}, ...readOnly }, async () => ({
    content: [{ type: 'text', text: process.cwd() }],
  }));
  server.registerTool('slow', { description: 'never answers', inputSchema: {}, ...readOnly }, () => new Promise(() => undefined));
  server.registerTool('limited', { description: 'always rate limited', inputSchema: {}, ...readOnly }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'HTTP 429 Too Many Requests: retry after 20 ms' }],
  }));
  // Two names that both become mcp__<server>__dup_tool.
  server.registerTool('dup.tool', { description: 'one of two', inputSchema: {}, ...readOnly }, async () => ({
    content: [{ type: 'text', text: 'dot' }],
  }));
  server.registerTool('dup_tool', { description: 'the other', inputSchema: {}, ...readOnly }, async () => ({
    content: [{ type: 'text', text: 'underscore' }],
  }));
  process.stdin.on('end', () => process.exit(0));
  await server.connect(new StdioServerTransport());
}
