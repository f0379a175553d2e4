// A misbehaving MCP server for fault tests: crashes mid-call, never answers, answers too much.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'faults', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'echo', inputSchema: { text: z.string(), times: z.number().int() }, annotations: { readOnlyHint: true } },
  async ({ text, times }) => ({
    content: [{ type: 'text', text: text.repeat(times) }],
  }),
);
server.registerTool('crash', { description: 'exits mid-call', inputSchema: {} }, async () => {
  process.stderr.write('about to crash\n');
  setTimeout(() => process.exit(3), 10);
  return new Promise(() => undefined);
});
server.registerTool(
  'hang',
  { description: 'never answers', inputSchema: {}, annotations: { readOnlyHint: true } },
  () => new Promise(() => undefined),
);
server.registerTool('huge', { description: 'a lot of text', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: 'y'.repeat(250_000) }],
}));
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
