// MCP server configuration: `.ironbees/mcp.json` in the workspace (`{ "mcpServers": { name: {...} } }`,
// the shape other MCP clients use) and the editor's settings, which the extension passes in as plain
// objects. Bad input is reported with the server, the field and what was expected; nothing starts.

import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { isCredentialVariable } from '../platform/child-env';
import { ConfigurationError } from '../errors';
import { registerSecret } from '../redact';
import { SERVER_NAME_PATTERN } from '../tools/mcp-naming';
import { resolveToolingPath } from '../workspace/paths';

export const WORKSPACE_MCP_CONFIG = path.join('.ironbees', 'mcp.json');
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 20_000;

const common = {
  /** Time limit for one tool call. */
  timeoutMs: z.number().int().positive().optional(),
  /** Time limit for starting the server and listing its tools. */
  startupTimeoutMs: z.number().int().positive().optional(),
  /** Tools to treat as read-only although the server does not mark them (readOnlyHint). */
  readonlyTools: z.array(z.string()).optional(),
  disabled: z.boolean().optional(),
};

const stdioServer = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string({ error: 'expected the command that starts the server' }).min(1),
  args: z.array(z.string(), { error: 'expected a list of strings' }).default([]),
  env: z.record(z.string(), z.string(), { error: 'expected a mapping of variable names to strings' }).optional(),
  cwd: z.string().optional(),
  ...common,
});

const httpServer = z.strictObject({
  type: z.enum(['http', 'streamable-http'], { error: 'expected "http" for a Streamable HTTP server' }),
  url: z.url({ error: 'expected an http(s) URL' }),
  headers: z.record(z.string(), z.string(), { error: 'expected a mapping of header names to strings' }).optional(),
  ...common,
});

/** Chosen by `type` rather than as a union, so an error names the field that is wrong (a union only says neither shape fits). */
function serverSchema(value: unknown): typeof stdioServer | typeof httpServer | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const type = (value as { type?: unknown }).type;
  return type === undefined || type === 'stdio' ? stdioServer : httpServer;
}

export type StdioServerConfig = z.output<typeof stdioServer> & { name: string };
export type HttpServerConfig = z.output<typeof httpServer> & { name: string };
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export function isHttpServer(config: McpServerConfig): config is HttpServerConfig {
  return config.type === 'http' || config.type === 'streamable-http';
}

/**
 * Validates server configs given as plain objects: `{ name: config }` (as in mcp.json's mcpServers
 * and the extension's settings) or a list of `{ name, ...config }`. `where` names the source in errors.
 */
export function mcpServersFromSettings(raw: unknown, where = 'settings', baseDir?: string): McpServerConfig[] {
  if (raw === undefined || raw === null) return [];
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.map((item, index) => [typeof item?.name === 'string' ? item.name : `#${index}`, withoutName(item)])
    : typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>)
      : [];
  if (!Array.isArray(raw) && typeof raw !== 'object')
    throw new ConfigurationError(`${where}: expected a mapping of MCP server names to their settings`);
  const problems: string[] = [];
  const servers: McpServerConfig[] = [];
  for (const [name, value] of entries) {
    if (!SERVER_NAME_PATTERN.test(name)) {
      problems.push(`${where}: server "${name}": expected a name of letters, digits, dashes and single underscores`);
      continue;
    }
    const schema = serverSchema(value);
    if (!schema) {
      problems.push(`${where}: server "${name}": expected a stdio server {command, args, env, cwd} or {type: "http", url, headers}`);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`${where}: server "${name}"${issue.path.length ? `: ${issue.path.join('.')}` : ''}: ${issue.message}`);
      continue;
    }
    if (parsed.data.disabled) continue;
    const config = { ...parsed.data, name } as McpServerConfig;
    registerConfigSecrets(config);
    if (!isHttpServer(config) && config.cwd && baseDir) config.cwd = path.resolve(baseDir, config.cwd);
    servers.push(config);
  }
  if (problems.length > 0) throw new ConfigurationError(problems.join('\n'), { problems });
  return servers;
}

/** `.ironbees/mcp.json`, or no servers when it is absent. */
export async function loadWorkspaceMcpConfig(workspaceRoot: string): Promise<McpServerConfig[]> {
  // Read where it is: an mcp.json (or .ironbees) that is a link is refused, not followed.
  const file = resolveToolingPath(workspaceRoot, WORKSPACE_MCP_CONFIG);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`${WORKSPACE_MCP_CONFIG}: not valid JSON (${(error as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || !('mcpServers' in json)) {
    throw new ConfigurationError(`${WORKSPACE_MCP_CONFIG}: expected { "mcpServers": { "<name>": { "command": ..., "args": [...] } } }`);
  }
  return mcpServersFromSettings((json as { mcpServers: unknown }).mcpServers, WORKSPACE_MCP_CONFIG, workspaceRoot);
}

/** Workspace servers override settings servers of the same name: the repository knows its tools best. */
export function mergeMcpServers(settings: readonly McpServerConfig[], workspace: readonly McpServerConfig[]): McpServerConfig[] {
  const byName = new Map<string, McpServerConfig>();
  for (const server of [...settings, ...workspace]) byName.set(server.name, server);
  return [...byName.values()];
}

/** Header or variable names whose values are credentials (Authorization, X-Api-Key, GITHUB_TOKEN, …). */
const SECRET_NAME = /auth|token|secret|key|password|passwd|cookie|credential/i;

/** A server's tokens (its auth headers, its secret env values) are masked in logs and traces like the API key. */
function registerConfigSecrets(config: McpServerConfig): void {
  const named = isHttpServer(config) ? config.headers : config.env;
  for (const [name, value] of Object.entries(named ?? {})) {
    if (!SECRET_NAME.test(name) && !isCredentialVariable(name)) continue;
    registerSecret(value);
    // `Bearer <token>`: the token alone may show up too (in a server's own error text).
    const scheme = /^\s*\S+\s+(\S{8,})\s*$/.exec(value);
    if (scheme) registerSecret(scheme[1]);
  }
}

function withoutName(item: unknown): unknown {
  if (item === null || typeof item !== 'object') return item;
  const { name: _name, ...rest } = item as Record<string, unknown>;
  return rest;
}
