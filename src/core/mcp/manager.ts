// The MCP servers of a workspace as one source of tools for the registry. A server starts when an
// agent that lists one of its tools first runs; one that will not start, crashes or hangs turns into
// an error for its own tools only, and a run whose agents need none of them never touches it.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../host';
import { errorMessage } from '../errors';
import { ToolFailure } from '../tools/failure';
import type { ExternalToolSource } from '../tools/registry';
import type { ToolDefinition, ToolOutcome } from '../tools/types';
import { loadWorkspaceMcpConfig, mergeMcpServers } from './config';
import type { McpServerConfig } from './config';
import { McpConnection } from './connection';
import { mcpToolDefinition } from './mcp-tools';
import { MCP_TOOL_PREFIX, mcpToolName, parseMcpToolName } from '../tools/mcp-naming';

export interface McpManagerOptions {
  /** Known up front (the extension's settings), or loaded lazily from `.ironbees/mcp.json`. */
  servers?: readonly McpServerConfig[];
  /** Also where stdio servers without `cwd` run. */
  workspaceRoot?: string;
  /** Whether `<workspaceRoot>/.ironbees/mcp.json` is read (only for a workspace a person trusted); default true. */
  readWorkspaceConfig?: boolean;
  logger: Logger;
  /** How long a failed start is remembered before the server is tried again (default 10 s). */
  startCooldownMs?: number;
}

const UNREACHABLE_TIMEOUT_MS = 30_000;

export class McpManager implements ExternalToolSource {
  private servers: Promise<Map<string, McpConnection>> | null = null;

  constructor(private readonly options: McpManagerOptions) {}

  owns(name: string): boolean {
    return name.startsWith(MCP_TOOL_PREFIX);
  }

  /** All at once: a server that hangs at start costs its startup timeout once, shared by all its tools. */
  async resolve(names: readonly string[]): Promise<ToolDefinition[]> {
    return Promise.all(names.map((name) => this.resolveOne(name)));
  }

  /** Every tool of every configured server (for listings); servers that fail are logged and skipped. */
  async allTools(): Promise<ToolDefinition[]> {
    const perServer = await Promise.all(
      [...(await this.connections()).values()].map(async (connection) => {
        try {
          const tools = await connection.tools();
          const clashes = clashingNames(connection.name, tools);
          for (const [name, group] of clashes) this.options.logger.warn(clashFailure(connection.name, name, group).message);
          return tools
            .filter((tool) => !clashes.has(mcpToolName(connection.name, tool.name)))
            .map((tool) => mcpToolDefinition(connection, tool));
        } catch (error) {
          this.options.logger.warn(errorMessage(error));
          return [];
        }
      }),
    );
    return perServer.flat();
  }

  async close(): Promise<void> {
    const servers = await this.servers?.catch(() => null);
    await Promise.all([...(servers?.values() ?? [])].map((connection) => connection.close()));
  }

  private connections(): Promise<Map<string, McpConnection>> {
    this.servers ??= (async () => {
      const { workspaceRoot, logger, startCooldownMs } = this.options;
      const fromFile = workspaceRoot && this.options.readWorkspaceConfig !== false ? await loadWorkspaceMcpConfig(workspaceRoot) : [];
      const configs = mergeMcpServers(this.options.servers ?? [], fromFile);
      return new Map(configs.map((config) => [config.name, new McpConnection(config, logger, { workspaceRoot, startCooldownMs })]));
    })();
    return this.servers;
  }

  private async resolveOne(name: string): Promise<ToolDefinition> {
    const parsed = parseMcpToolName(name);
    if (!parsed)
      return unreachable(name, new ToolFailure('NotFound', `"${name}" is not an MCP tool name; expected mcp__<server>__<tool>.`));
    let connections: Map<string, McpConnection>;
    try {
      connections = await this.connections();
    } catch (error) {
      return unreachable(name, new ToolFailure('NotFound', `the MCP configuration could not be read: ${errorMessage(error)}`));
    }
    const connection = connections.get(parsed.server);
    if (!connection) {
      const known = [...connections.keys()].join(', ') || '(none)';
      return unreachable(
        name,
        new ToolFailure('NotFound', `no MCP server named "${parsed.server}" is configured (configured: ${known}); see .ironbees/mcp.json.`),
      );
    }
    try {
      return this.definitionFrom(connection, name, await connection.tools());
    } catch (error) {
      this.options.logger.warn(`${errorMessage(error)} (its tools answer with this error)`);
      // Kept resolvable: each call tries to start the server again and explains if it still cannot.
      return deferredDefinition(name, connection, parsed.tool, (tools) => this.definitionFrom(connection, name, tools));
    }
  }

  private definitionFrom(connection: McpConnection, name: string, tools: readonly Tool[]): ToolDefinition {
    const matching = tools.filter((candidate) => mcpToolName(connection.name, candidate.name) === name);
    if (matching.length > 1) {
      const failure = clashFailure(connection.name, name, matching);
      this.options.logger.warn(failure.message);
      return unreachable(name, failure);
    }
    if (matching.length === 1) return mcpToolDefinition(connection, matching[0]);
    const available = tools.map((candidate) => mcpToolName(connection.name, candidate.name)).join(', ') || '(none)';
    return unreachable(
      name,
      new ToolFailure(
        'NotFound',
        `the MCP server "${connection.name}" has no tool "${parseMcpToolName(name)?.tool}"; it offers: ${available}.`,
      ),
    );
  }
}

/** Names that more than one of a server's tools map to (sanitising and the 64-character cut can merge them). */
function clashingNames(server: string, tools: readonly Tool[]): Map<string, Tool[]> {
  const byName = new Map<string, Tool[]>();
  for (const tool of tools) {
    const name = mcpToolName(server, tool.name);
    byName.set(name, [...(byName.get(name) ?? []), tool]);
  }
  return new Map([...byName].filter(([, group]) => group.length > 1));
}

/** Neither tool is offered: calling the wrong one could have side effects the agent did not mean. */
function clashFailure(server: string, name: string, group: readonly Tool[]): ToolFailure {
  const originals = group.map((tool) => `"${tool.name}"`).join(', ');
  return new ToolFailure(
    'ToolBug',
    `the MCP server "${server}" has ${group.length} tools that all become ${name} (${originals}; characters outside [A-Za-z0-9_-] become "_" and names are cut at 64 characters), ` +
      'so none of them is offered. Rename one of them on the server.',
  );
}

function placeholder(name: string, description: string, execute: ToolDefinition['execute']): ToolDefinition {
  return {
    name,
    description,
    input: { safeParse: (value: unknown) => ({ success: true, data: value }) } as unknown as ToolDefinition['input'],
    inputJsonSchema: { type: 'object', properties: {}, additionalProperties: true },
    // Read-only because it runs nothing: it only answers with its failure, which approval would hide.
    readonly: true,
    timeoutMs: UNREACHABLE_TIMEOUT_MS,
    execute,
  };
}

function unreachable(name: string, failure: ToolFailure): ToolDefinition {
  return placeholder(name, `Unavailable: ${failure.message}`, async (): Promise<ToolOutcome> => ({
    ok: false,
    kind: failure.kind,
    error: failure.message,
  }));
}

/**
 * A stand-in for a tool of a server that did not start when the agent's tools were resolved. The
 * registry resolves it before each call and runs the real definition through the whole adapter
 * (approval, the server's time limit, retries, output check); until then nothing is known about the
 * tool, so the stand-in itself claims side effects rather than skipping approval on a guess.
 */
function deferredDefinition(
  name: string,
  connection: McpConnection,
  tool: string,
  build: (tools: readonly Tool[]) => ToolDefinition,
): ToolDefinition {
  return {
    ...placeholder(name, `A tool of the MCP server "${connection.name}", which could not be started yet.`, async () => {
      throw new Error(`${name} is a stand-in: run it through ToolRegistry.execute, which resolves it first`);
    }),
    readonly: false,
    externalEffects: true,
    timeoutMs: connection.callTimeoutMs,
    source: { kind: 'mcp', server: connection.name, tool },
    resolveDeferred: async () => build(await connection.tools()),
  };
}
