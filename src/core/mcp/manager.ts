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
import { MCP_TOOL_PREFIX, mcpToolName, parseMcpToolName } from './naming';

export interface McpManagerOptions {
  /** Known up front (the extension's settings), or loaded lazily from `.ironbees/mcp.json`. */
  servers?: readonly McpServerConfig[];
  workspaceRoot?: string;
  logger: Logger;
}

const UNREACHABLE_TIMEOUT_MS = 30_000;

export class McpManager implements ExternalToolSource {
  private servers: Promise<Map<string, McpConnection>> | null = null;

  constructor(private readonly options: McpManagerOptions) {}

  owns(name: string): boolean {
    return name.startsWith(MCP_TOOL_PREFIX);
  }

  async resolve(names: readonly string[]): Promise<ToolDefinition[]> {
    const out: ToolDefinition[] = [];
    for (const name of names) out.push(await this.resolveOne(name));
    return out;
  }

  /** Every tool of every configured server (for listings); servers that fail are logged and skipped. */
  async allTools(): Promise<ToolDefinition[]> {
    const out: ToolDefinition[] = [];
    for (const connection of (await this.connections()).values()) {
      try {
        for (const tool of await connection.tools()) out.push(mcpToolDefinition(connection, tool));
      } catch (error) {
        this.options.logger.warn(errorMessage(error));
      }
    }
    return out;
  }

  async close(): Promise<void> {
    const servers = await this.servers?.catch(() => null);
    await Promise.all([...(servers?.values() ?? [])].map((connection) => connection.close()));
  }

  private connections(): Promise<Map<string, McpConnection>> {
    this.servers ??= (async () => {
      const fromFile = this.options.workspaceRoot ? await loadWorkspaceMcpConfig(this.options.workspaceRoot) : [];
      const configs = mergeMcpServers(this.options.servers ?? [], fromFile);
      return new Map(configs.map((config) => [config.name, new McpConnection(config, this.options.logger)]));
    })();
    return this.servers;
  }

  private async resolveOne(name: string): Promise<ToolDefinition> {
    const parsed = parseMcpToolName(name);
    if (!parsed) return unreachable(name, new ToolFailure('NotFound', `"${name}" is not an MCP tool name; expected mcp__<server>__<tool>.`));
    let connections: Map<string, McpConnection>;
    try {
      connections = await this.connections();
    } catch (error) {
      return unreachable(name, new ToolFailure('NotFound', `the MCP configuration could not be read: ${errorMessage(error)}`));
    }
    const connection = connections.get(parsed.server);
    if (!connection) {
      const known = [...connections.keys()].join(', ') || '(none)';
      return unreachable(name, new ToolFailure('NotFound', `no MCP server named "${parsed.server}" is configured (configured: ${known}); see .ironbees/mcp.json.`));
    }
    try {
      return this.definitionFrom(connection, name, await connection.tools());
    } catch (error) {
      this.options.logger.warn(`${errorMessage(error)} (its tools answer with this error)`);
      // Kept resolvable: each call tries to start the server again and explains if it still cannot.
      return retryingDefinition(name, connection, (tools) => this.definitionFrom(connection, name, tools));
    }
  }

  private definitionFrom(connection: McpConnection, name: string, tools: readonly Tool[]): ToolDefinition {
    const tool = tools.find((candidate) => mcpToolName(connection.name, candidate.name) === name);
    if (tool) return mcpToolDefinition(connection, tool);
    const available = tools.map((candidate) => mcpToolName(connection.name, candidate.name)).join(', ') || '(none)';
    return unreachable(name, new ToolFailure('NotFound', `the MCP server "${connection.name}" has no tool "${parseMcpToolName(name)?.tool}"; it offers: ${available}.`));
  }
}

function placeholder(name: string, description: string, execute: ToolDefinition['execute']): ToolDefinition {
  return {
    name,
    description,
    input: { safeParse: (value: unknown) => ({ success: true, data: value }) } as unknown as ToolDefinition['input'],
    inputJsonSchema: { type: 'object', properties: {}, additionalProperties: true },
    readonly: true,
    timeoutMs: UNREACHABLE_TIMEOUT_MS,
    execute,
  };
}

function unreachable(name: string, failure: ToolFailure): ToolDefinition {
  return placeholder(name, `Unavailable: ${failure.message}`, async (): Promise<ToolOutcome> => ({ ok: false, kind: failure.kind, error: failure.message }));
}

function retryingDefinition(name: string, connection: McpConnection, build: (tools: readonly Tool[]) => ToolDefinition): ToolDefinition {
  return placeholder(name, `A tool of the MCP server "${connection.name}", which could not be started yet.`, async (input, context) => {
    const real = build(await connection.tools());
    const parsed = real.input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, kind: 'InvalidInput', error: `Invalid arguments for ${name}: ${parsed.error.message}` };
    return real.execute(parsed.data, context);
  });
}
