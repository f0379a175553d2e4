// `ironbees serve`'s options, and the --notify-webhook option `run` shares (args.ts keeps the rest).

import * as path from 'node:path';
import { UsageError } from './exit-codes';
import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { SandboxMode } from '../core/platform/sandbox';
import type { CommandName } from './command-names';

export const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'workspace-root': { type: 'string', multiple: true },
  'notify-webhook': { type: 'string' },
  demo: { type: 'boolean' },
  sandbox: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | string[] | undefined>;

function stringValue(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function sandboxOption(values: Values): SandboxMode {
  const raw = stringValue(values, 'sandbox');
  if (raw === undefined) return 'auto';
  const mode = SANDBOX_MODES.find((m) => m === raw.trim());
  if (!mode) throw new UsageError(`--sandbox must be one of ${SANDBOX_MODES.join(', ')} (got "${raw}").`, 'serve');
  return mode;
}

/** `ironbees serve`: the orchestrator behind an HTTP API and a web page (src/serve/). */
export interface ServeArgs {
  command: 'serve';
  host: string;
  /** 0 = any free port (the first stdout line names it). */
  port: number;
  /** Absolute; runs may be started in these folders and below only. */
  workspaceRoots: string[];
  notifyWebhook?: string;
  trustWorkspace: boolean;
  demo: boolean;
  sandbox: SandboxMode;
}

export function webhookOption(values: Values, command: CommandName): { notifyWebhook?: string } {
  const raw = stringValue(values, 'notify-webhook')?.trim();
  if (raw === undefined) return {};
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(`--notify-webhook needs an http(s) URL (got "${raw}").`, command);
  }
  return { notifyWebhook: raw };
}

export function parseServe(values: Values, positionals: string[], cwd: string): ServeArgs {
  if (positionals.length) throw new UsageError(`serve takes no arguments (got "${positionals[0]}").`, 'serve');
  const roots = values['workspace-root'];
  if (!Array.isArray(roots) || roots.length === 0 || roots.some((r) => !r.trim())) {
    throw new UsageError('serve needs --workspace-root DIR (repeatable): runs may be started only in those folders.', 'serve');
  }
  const rawPort = stringValue(values, 'port');
  const port = rawPort === undefined ? 0 : Number(rawPort);
  if (rawPort !== undefined && (!/^\d+$/.test(rawPort.trim()) || port > 65535))
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${rawPort}").`, 'serve');
  const host = stringValue(values, 'host')?.trim() || '127.0.0.1';
  return {
    command: 'serve',
    host,
    port,
    workspaceRoots: roots.map((root) => path.resolve(cwd, root.trim())),
    ...webhookOption(values, 'serve'),
    trustWorkspace: values['trust-workspace'] === true,
    demo: values.demo === true,
    sandbox: sandboxOption(values),
  };
}
