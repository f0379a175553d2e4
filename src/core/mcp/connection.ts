// One MCP server, started on first use and restarted after it crashes. Failures become ToolFailures
// with a taxonomy kind, naming the server, so one broken server is an error for its tools only.
// A stdio server's stderr goes to the log, line by line, prefixed with its name.
//
// One start is in flight per server at a time, whoever asks; a start that failed is remembered for a
// short cooldown, so a server that hangs at start costs one startup timeout, not one per tool.

import * as path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { childEnvironment } from '../platform/child-env';
import type { Logger } from '../host';
import { errorMessage } from '../errors';
import { ToolFailure, kindForHttpStatus } from '../tools/failure';
import { DEFAULT_MCP_STARTUP_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, isHttpServer } from './config';
import type { McpServerConfig } from './config';

const CLIENT_INFO = { name: 'ironbees', version: '0.1.0' };
/** Long enough that one agent's tools of a dead server fail at once, short enough that a fixed server is used soon. */
export const DEFAULT_START_COOLDOWN_MS = 10_000;

export interface McpConnectionOptions {
  /** Where a stdio server without `cwd` runs (else this process's cwd). */
  workspaceRoot?: string;
  /** How long a failed start is answered from memory before the server is tried again. */
  startCooldownMs?: number;
}

interface Live {
  client: Client;
  tools: Tool[];
  closed: boolean;
}

export class McpConnection {
  private live: Promise<Live> | null = null;
  private failedStart: { failure: ToolFailure; at: number } | null = null;

  constructor(
    readonly config: McpServerConfig,
    private readonly logger: Logger,
    private readonly options: McpConnectionOptions = {},
  ) {}

  get name(): string {
    return this.config.name;
  }

  get callTimeoutMs(): number {
    return this.config.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  /** Starts the server if needed; a failed start is answered from memory until its cooldown ends. */
  async tools(): Promise<Tool[]> {
    return (await this.connection()).tools;
  }

  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const live = await this.connection();
    try {
      const result = await live.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.callTimeoutMs,
        resetTimeoutOnProgress: true,
      });
      return result as CallToolResult;
    } catch (error) {
      const failure = this.describe(error, `calling ${tool}`);
      // A server that timed out or went away is restarted on the next call rather than trusted again.
      if (failure.kind === 'Timeout' || failure.kind === 'RetryableServer' || signal?.aborted) await this.reset(live);
      throw failure;
    }
  }

  async close(): Promise<void> {
    const live = this.live;
    this.live = null;
    if (!live) return;
    const value = await live.catch(() => null);
    if (value) await value.client.close().catch(() => undefined);
  }

  private connection(): Promise<Live> {
    const remembered = this.rememberedFailure();
    if (remembered) return Promise.reject(remembered);
    this.live ??= this.start().catch((error: unknown) => {
      this.live = null;
      this.failedStart = { failure: this.describe(error, 'starting'), at: Date.now() };
      throw error;
    });
    const current = this.live;
    return current.then((live) => {
      if (!live.closed) return live;
      if (this.live === current) this.live = null;
      return this.connection();
    });
  }

  private rememberedFailure(): ToolFailure | null {
    if (!this.failedStart) return null;
    const cooldown = this.options.startCooldownMs ?? DEFAULT_START_COOLDOWN_MS;
    const left = this.failedStart.at + cooldown - Date.now();
    if (left <= 0) {
      this.failedStart = null;
      return null;
    }
    const { failure } = this.failedStart;
    return new ToolFailure(
      failure.kind,
      `${failure.message} (not tried again for another ${Math.ceil(left / 1000)} s)`,
      failure.retryAfterMs,
      { cause: failure },
    );
  }

  private async start(): Promise<Live> {
    const transport = this.transport();
    const client = new Client(CLIENT_INFO);
    const live: Live = { client, tools: [], closed: false };
    client.onclose = () => {
      live.closed = true;
      this.logger.debug(`mcp ${this.name}: connection closed`);
    };
    client.onerror = (error) => this.logger.debug(`mcp ${this.name}: ${errorMessage(error)}`);
    const timeout = this.config.startupTimeoutMs ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout });
      live.tools = await this.listAll(client, timeout);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw this.describe(error, 'starting');
    }
    this.logger.debug(`mcp ${this.name}: started with ${live.tools.length} tools`);
    return live;
  }

  private async listAll(client: Client, timeout: number): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private transport(): Transport {
    const config = this.config;
    if (isHttpServer(config)) {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
    }
    const root = this.options.workspaceRoot;
    const cwd = config.cwd ? (root ? path.resolve(root, config.cwd) : config.cwd) : root;
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK's short list of inherited variables, never a credential; what the config names is passed.
      env: childEnvironment({ base: getDefaultEnvironment(), set: config.env }),
      // Relative to the workspace, like a task's cwd; the extension host's own cwd means nothing to the user.
      ...(cwd ? { cwd } : {}),
      stderr: 'pipe',
    });
    let pending = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.logger.info(`[mcp ${this.name}] ${line}`);
    });
    return transport;
  }

  private async reset(live: Live): Promise<void> {
    live.closed = true;
    await live.client.close().catch(() => undefined);
  }

  private describe(error: unknown, doing: string): ToolFailure {
    const where = `MCP server "${this.name}"`;
    if (error instanceof ToolFailure) return error;
    if (error instanceof UnauthorizedError) {
      return new ToolFailure(
        'Unauthorized',
        `${where} refused the credentials when ${doing} (check "headers" in the server config): ${error.message}`,
        undefined,
        { cause: error },
      );
    }
    if (error instanceof StreamableHTTPError && error.code !== undefined) {
      const hint = error.code === 401 || error.code === 403 ? ' (check the Authorization header in "headers" of the server config)' : '';
      return new ToolFailure(
        kindForHttpStatus(error.code),
        `${where} answered HTTP ${error.code} when ${doing}${hint}: ${error.message}`,
        undefined,
        { cause: error },
      );
    }
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) {
        return new ToolFailure(
          'Timeout',
          `${where} did not answer in time when ${doing}; it is started afresh for a later call.`,
          undefined,
          { cause: error },
        );
      }
      if (error.code === ErrorCode.ConnectionClosed) {
        return new ToolFailure(
          'RetryableServer',
          `${where} closed the connection when ${doing} (it crashed or exited); it is started afresh for a later call.`,
          undefined,
          { cause: error },
        );
      }
      if (error.code === ErrorCode.InvalidParams)
        return new ToolFailure('InvalidInput', `${where} refused the arguments: ${error.message}`, undefined, { cause: error });
      if (error.code === ErrorCode.MethodNotFound)
        return new ToolFailure('NotFound', `${where}: ${error.message}`, undefined, { cause: error });
      return new ToolFailure('RetryableServer', `${where} failed when ${doing}: ${error.message}`, undefined, { cause: error });
    }
    const code = (error as NodeJS.ErrnoException).code;
    const hint = code === 'ENOENT' ? ' (the command was not found; check "command" in the server config)' : '';
    return new ToolFailure('RetryableServer', `${where} could not be reached when ${doing}: ${errorMessage(error)}${hint}`, undefined, {
      cause: error,
    });
  }
}
