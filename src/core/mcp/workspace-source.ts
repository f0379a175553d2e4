// The MCP tools of a workspace for runs whose registry was built without a source (the CLI): one
// manager per workspace and process, created only when an agent lists an `mcp__` tool, so a run
// that needs none never reads mcp.json or starts a server.

import type { Host } from '../host';
import type { ExternalToolSource } from '../tools/registry';
import type { McpManager } from './manager';
import { MCP_TOOL_PREFIX } from '../tools/mcp-naming';

const managers = new Map<string, Promise<McpManager>>();

/** The workspace's manager; the MCP SDK (client, transports, schemas) loads with the first one, not with the CLI. */
function managerFor(host: Host): Promise<McpManager> {
  let manager = managers.get(host.workspaceRoot);
  if (!manager) {
    manager = import('./manager.js').then(({ McpManager }) => new McpManager({ workspaceRoot: host.workspaceRoot, logger: host.logger }));
    managers.set(host.workspaceRoot, manager);
  }
  return manager;
}

export function workspaceMcpSource(host: Host, names: readonly string[]): ExternalToolSource | undefined {
  if (!names.some((name) => name.startsWith(MCP_TOOL_PREFIX))) return undefined;
  const manager = managerFor(host);
  return { owns: (name) => name.startsWith(MCP_TOOL_PREFIX), resolve: async (wanted) => (await manager).resolve(wanted) };
}

/** Stops every server this process started for workspaces (the CLI calls it before exiting). */
export async function closeWorkspaceMcpSources(): Promise<void> {
  const all = [...managers.values()];
  managers.clear();
  await Promise.all(all.map(async (manager) => (await manager).close()));
}

/**
 * The workspace's MCP tools as a registry source that starts nothing until an agent asks for an
 * `mcp__` tool (the composition root registers it for the CLI; the editor has its own manager).
 */
export function lazyWorkspaceMcpSource(host: Host): ExternalToolSource {
  return {
    owns: (name) => name.startsWith(MCP_TOOL_PREFIX),
    resolve: (names) => workspaceMcpSource(host, names)?.resolve(names) ?? Promise.resolve([]),
  };
}
