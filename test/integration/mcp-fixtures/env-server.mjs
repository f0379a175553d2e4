// An MCP server that answers with the environment it was started with, so a test can see exactly
// which variables an MCP stdio server receives from Ironbees.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'env', version: '1.0.0' });
server.registerTool(
  'environment',
  { description: 'the server process environment', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => ({
    content: [{ type: 'text', text: JSON.stringify(process.env) }],
  }),
);
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
