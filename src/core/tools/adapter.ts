// One validated call, made safe: a time limit with an AbortSignal, cancellation, retries of retryable
// failures only (full-jitter backoff), and the output checked against the tool's output schema.
// Every failure leaves here as `{ ok: false, kind }`; nothing throws.

import { AgentModeError, errorMessage } from '../errors';
import { DEFAULT_RETRY_ON, guessKindFromMessage, kindOfError } from './failure';
import type { ToolErrorKind } from './failure';
import { fullJitterDelay, sleep } from './retry';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

type Failure = Extract<ToolOutcome, { ok: false }>;

export interface AttemptOptions {
  random?: () => number;
}

export async function runWithPolicy(
  tool: ToolDefinition,
  input: unknown,
  ctx: ToolContext,
  options: AttemptOptions = {},
): Promise<ToolOutcome> {
  const policy = tool.retry;
  const retryOn = policy?.retryOn ?? DEFAULT_RETRY_ON;
  for (let retry = 0; ; retry++) {
    const outcome = checkOutput(tool, await runOnce(tool, input, ctx));
    if (outcome.ok || !policy || retry >= policy.maxRetries || !outcome.kind || !retryOn.includes(outcome.kind)) return outcome;
    // A server's Retry-After wins over our guess, within the policy's ceiling.
    const wait =
      outcome.retryAfterMs !== undefined
        ? Math.min(outcome.retryAfterMs, policy.maxDelayMs)
        : fullJitterDelay(policy, retry, options.random);
    ctx.host.logger.debug(`tool ${tool.name}: ${outcome.kind}, retry ${retry + 1} of ${policy.maxRetries} in ${wait} ms`);
    if (!(await sleep(wait, ctx.signal))) return cancelledOutcome(tool.name, 'stopped');
  }
}

export function cancelledOutcome(toolName: string, how: 'stopped' | 'not run'): Failure {
  return {
    ok: false,
    kind: 'Cancelled',
    error: `${toolName} ${how === 'stopped' ? 'was stopped' : 'was not run'}: the run was cancelled.`,
  };
}

async function runOnce(tool: ToolDefinition, input: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(ctx.signal?.reason);
  ctx.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ToolOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve({
        ok: false,
        kind: 'Timeout',
        error: `${tool.name} timed out after ${formatDuration(tool.timeoutMs)}; ask for less at once (a narrower path, pattern or query).`,
      });
    }, tool.timeoutMs);
  });
  const cancelled = new Promise<ToolOutcome>((resolve) => {
    controller.signal.addEventListener('abort', () => {
      if (ctx.signal?.aborted) resolve(cancelledOutcome(tool.name, 'stopped'));
    });
  });
  try {
    const run = Promise.resolve()
      .then(() => tool.execute(input, { ...ctx, signal: controller.signal }))
      .then(withKind, (error: unknown) => failure(tool.name, error, ctx));
    return await Promise.race([run, timedOut, cancelled]);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onOuterAbort);
  }
}

function withKind(outcome: ToolOutcome): ToolOutcome {
  if (outcome.ok) return { ...outcome, content: typeof outcome.content === 'string' ? outcome.content : String(outcome.content) };
  return outcome.kind ? outcome : { ...outcome, kind: guessKindFromMessage(outcome.error) };
}

/** Expected failures (bad paths, unsupported files) carry their own advice; anything else is a bug, logged with its stack. */
function failure(toolName: string, error: unknown, ctx: ToolContext): Failure {
  const kind: ToolErrorKind = kindOfError(error);
  const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
  if (error instanceof AgentModeError)
    return { ok: false, kind, error: error.message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  ctx.host.logger.error(`tool ${toolName} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { ok: false, kind, error: `${toolName} failed: ${errorMessage(error)}` };
}

function checkOutput(tool: ToolDefinition, outcome: ToolOutcome): ToolOutcome {
  if (!outcome.ok || !tool.output) return outcome;
  let data = outcome.data;
  if (data === undefined) {
    try {
      data = JSON.parse(outcome.content) as unknown;
    } catch {
      return {
        ok: false,
        kind: 'OutputSchemaMismatch',
        error: `${tool.name} returned text that is not the JSON its output schema describes.`,
      };
    }
  }
  const parsed = tool.output.safeParse(data);
  if (parsed.success) return { ...outcome, data: parsed.data };
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(output)'}: ${issue.message}`)
    .join('; ');
  return {
    ok: false,
    kind: 'OutputSchemaMismatch',
    error: `${tool.name} returned output that does not match its schema (${issues}); the tool, not your call, is at fault.`,
  };
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
