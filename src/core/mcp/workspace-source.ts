// The MCP tools of a workspace for runs whose registry was built without a source (the CLI): one
// manager per workspace and process, created only when an agent lists an `mcp__` tool, so a run
// that needs none never reads mcp.json or starts a server.

import type { Host } from '../host';
import type { ExternalToolSource } from '../tools/registry';
import { McpManager } from './manager';
import { MCP_TOOL_PREFIX } from '../tools/mcp-naming';

const managers = new Map<string, McpManager>();

export function workspaceMcpSource(host: Host, names: readonly string[]): ExternalToolSource | undefined {
  if (!names.some((name) => name.startsWith(MCP_TOOL_PREFIX))) return undefined;
  let manager = managers.get(host.workspaceRoot);
  if (!manager) {
    manager = new McpManager({ workspaceRoot: host.workspaceRoot, logger: host.logger });
    managers.set(host.workspaceRoot, manager);
  }
  return manager;
}

/** Stops every server this process started for workspaces (the CLI calls it before exiting). */
export async function closeWorkspaceMcpSources(): Promise<void> {
  const all = [...managers.values()];
  managers.clear();
  await Promise.all(all.map((manager) => manager.close()));
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
