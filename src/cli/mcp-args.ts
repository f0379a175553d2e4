// `ironbees mcp`'s options: stdio by default, or HTTP on a port with a token.

import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { McpArgs } from './arg-types';
import { UsageError } from './exit-codes';
import { choiceOption, stringValue } from './option-values';
import type { Values } from './option-values';

export function parseMcp(values: Values, positionals: string[], workspace: string): McpArgs {
  if (positionals.length) throw new UsageError(`mcp takes no arguments (got "${positionals[0]}").`, 'mcp');
  const http = values.http === true;
  const rawPort = stringValue(values, 'port');
  if (!http && (rawPort !== undefined || values.token !== undefined)) throw new UsageError('--port and --token need --http.', 'mcp');
  const port = rawPort === undefined ? 0 : Number(rawPort);
  if (rawPort !== undefined && (!/^\d+$/.test(rawPort.trim()) || port > 65535))
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${rawPort}").`, 'mcp');
  const token = stringValue(values, 'token');
  if (token !== undefined && token.trim().length < 16) throw new UsageError('--token must be at least 16 characters.', 'mcp');
  const sandbox = choiceOption(values, 'sandbox', SANDBOX_MODES, 'auto', 'mcp');
  return {
    command: 'mcp',
    workspace,
    trustWorkspace: values['trust-workspace'] === true,
    http,
    port,
    ...(token !== undefined ? { token: token.trim() } : {}),
    demo: values.demo === true,
    sandbox,
  };
}
