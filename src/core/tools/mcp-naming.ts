// How an MCP server's tool is named for agents: `mcp__<server>__<tool>` (the convention Claude Code
// uses). The model's tool names must match ^[a-zA-Z0-9_-]{1,64}$, so `:` and `/` are out, and a
// server name never contains `__`, which keeps the name unambiguous.

export const MCP_TOOL_PREFIX = 'mcp__';
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
const MODEL_NAME_LIMIT = 64;

export function mcpToolName(server: string, tool: string): string {
  const safeTool = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${MCP_TOOL_PREFIX}${server}__${safeTool}`.slice(0, MODEL_NAME_LIMIT);
}

export function isMcpToolName(name: string): boolean {
  return parseMcpToolName(name) !== null;
}

/** `mcp__memory__read_graph` → { server: 'memory', tool: 'read_graph' } (the tool part as sanitised). */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return null;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const split = rest.indexOf('__');
  if (split <= 0 || split === rest.length - 2) return null;
  const server = rest.slice(0, split);
  if (!SERVER_NAME_PATTERN.test(server)) return null;
  return { server, tool: rest.slice(split + 2) };
}
