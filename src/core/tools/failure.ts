// The tools' failure taxonomy. Every failed tool call carries one kind, so retry policy, traces and
// the model's next move depend on what went wrong rather than on message text.

import { AgentModeError, PathOutsideWorkspaceError, TOOL_ERROR_KINDS, ToolNotFoundError } from '../errors';
import type { ToolErrorKind } from '../errors';

// The kinds live in the kernel (errors.ts) because run traces record them; re-exported here.
export { TOOL_ERROR_KINDS } from '../errors';
export type { ToolErrorKind } from '../errors';

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

/** `Request failed with status code 429`, `HTTP 503`, `error: 401`, `(403)`: a status named as one, not any number in the text (`500 items`). */
function statusPattern(codes: string): RegExp {
  return new RegExp(`(?:\\b(?:http|status|code|error)\\b[\\s:=(]*(?:code[\\s:=]*)?|\\()(?:${codes})\\b`, 'i');
}

/** First match wins: the more specific kinds come before "missing" and "empty", which servers say in passing. */
const MESSAGE_KINDS: ReadonlyArray<[ToolErrorKind, RegExp[]]> = [
  ['RateLimited', [/\brate[- ]?limit(?:ed|ing|s)?\b|\btoo many requests\b|\bthrottl(?:ed|ing)\b/i, statusPattern('429')]],
  [
    'Unauthorized',
    [
      /\bunauthori[sz]ed\b|\bnot authenticated\b|\bauthentication (?:failed|required)\b|\binvalid (?:api[- ]?key|token|credentials)\b/i,
      statusPattern('401'),
    ],
  ],
  ['Forbidden', [/\bforbidden\b|\bpermission denied\b|\baccess (?:is )?denied\b/i, statusPattern('403')]],
  ['Timeout', [/\btim(?:ed|es)? ?out\b|\btimeout\b|\bdeadline exceeded\b/i, statusPattern('408|504')]],
  [
    'RetryableServer',
    [
      /\btemporar(?:il)?y unavailable\b|\bservice unavailable\b|\b(?:server )?(?:is )?overloaded\b|\bbad gateway\b|\binternal server error\b|\btry again later\b/i,
      statusPattern('500|502|503'),
    ],
  ],
  ['NotFound', [/\b(?:no such file|does not exist|not found|unknown tool)\b/i]],
  ['NoResults', [/\bno (?:matches|results|symbols|references)\b/i]],
];

/**
 * A tool's own `{ ok: false }` without a kind (or an MCP server's isError text): an explicit
 * `[Kind]` prefix (as Ironbees' own server writes) wins; then what the text says (rate limits, auth,
 * time-outs, overload, missing things, empty answers); the rest is the input's fault.
 */
export function guessKindFromMessage(message: string): ToolErrorKind {
  const tagged = /^\s*\[([A-Za-z]+)\]/.exec(message)?.[1];
  if (tagged && (TOOL_ERROR_KINDS as readonly string[]).includes(tagged)) return tagged as ToolErrorKind;
  for (const [kind, patterns] of MESSAGE_KINDS) if (patterns.some((pattern) => pattern.test(message))) return kind;
  return 'InvalidInput';
}

/** `Retry-After: 30`, `retry after 2 s`, `retry after 500 ms` in a server's error text, in milliseconds. */
export function retryAfterFromMessage(message: string): number | undefined {
  const match = /\bretry[- ]after\b[\s:=]*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?\b/i.exec(message);
  if (!match) return undefined;
  const value = Number(match[1]);
  return Math.round(match[2] && /^m/i.test(match[2]) ? value : value * 1000);
}
