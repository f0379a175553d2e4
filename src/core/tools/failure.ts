// The seed-004 failure taxonomy. Every failed tool call carries one kind, so retry policy, traces and
// the model's next move depend on what went wrong rather than on message text.

import { AgentModeError, PathOutsideWorkspaceError, ToolNotFoundError } from '../errors';

export const TOOL_ERROR_KINDS = [
  'InvalidInput',
  'Timeout',
  'RetryableServer',
  'RateLimited',
  'OutputSchemaMismatch',
  'NoResults',
  'ToolBug',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'Cancelled',
] as const;
export type ToolErrorKind = (typeof TOOL_ERROR_KINDS)[number];

export const DEFAULT_RETRY_ON: readonly ToolErrorKind[] = ['RetryableServer', 'RateLimited'];

/** Thrown by tool code (or the MCP client) to fail with a specific kind; the adapter turns it into data. */
export class ToolFailure extends AgentModeError {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, `TOOL_${kind.toUpperCase()}`, { kind }, options);
  }
}

/** HTTP statuses as the seed's table maps them (401/403/404/429/5xx; other 4xx are the caller's input). */
export function kindForHttpStatus(status: number): ToolErrorKind {
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 408 || status === 504) return 'Timeout';
  if (status === 429) return 'RateLimited';
  if (status >= 500) return 'RetryableServer';
  return 'InvalidInput';
}

/** The kind of a thrown error: ours carry it; a path refusal is Forbidden; anything unexpected is a ToolBug. */
export function kindOfError(error: unknown): ToolErrorKind {
  if (error instanceof ToolFailure) return error.kind;
  if (error instanceof PathOutsideWorkspaceError) return 'Forbidden';
  if (error instanceof ToolNotFoundError) return 'NotFound';
  if (error instanceof AgentModeError) return 'InvalidInput';
  return 'ToolBug';
}

/** A tool's own `{ ok: false }` without a kind: missing things are NotFound, empty answers NoResults, the rest the input's fault. */
export function guessKindFromMessage(message: string): ToolErrorKind {
  if (/\b(no such file|does not exist|not found|unknown tool)\b/i.test(message)) return 'NotFound';
  if (/\bno (matches|results|symbols|references)\b/i.test(message)) return 'NoResults';
  return 'InvalidInput';
}
