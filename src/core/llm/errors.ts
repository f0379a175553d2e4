// The errors of a failed model call, the same kinds for every provider, with a message a person can
// act on. By the time an error reaches here the SDK has already retried what is worth retrying
// (429, 529, 5xx, connection errors), so every error here is final for this call. What each SDK
// throws is mapped beside its client (anthropic/anthropic-errors.ts, openai/errors.ts), so loading
// these classes loads no SDK.

import { AgentModeError, ConfigurationError } from '../errors';

export type ModelErrorKind =
  | 'authentication'
  | 'permission'
  | 'bad_request'
  | 'not_found'
  | 'too_large'
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'cancelled'
  | 'unknown';

/** A model call that failed after the SDK's retries. */
export class ModelApiError extends AgentModeError {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown; requestId?: string | null },
  ) {
    super(
      message,
      kind === 'cancelled' ? 'CANCELLED' : 'MODEL_API_ERROR',
      { kind, status, requestId: options?.requestId ?? null },
      options,
    );
  }
}

/**
 * A refused key or a forbidden model: configuration, not a transient failure, so the CLI reports
 * it as such (exit 2) instead of retrying or blaming the agent.
 */
export class ModelAuthenticationError extends ConfigurationError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, { status });
  }
}

/** What differs between providers in the messages of a failed call. */
export interface ProviderWords {
  keyVariable: string;
  baseUrlVariable: string;
  /** Where the endpoint is (` at <url>`), or '' where the message does not say. */
  endpoint: string;
  /** The statuses that mean "overloaded" rather than "failed". */
  overloadedStatuses: readonly number[];
}

export interface StatusErrorFacts {
  model: string;
  apiMessage: string | null | undefined;
  /** The SDK's own message, said when the API gave none. */
  fallbackText: string;
  options: { cause: unknown; requestId: string | null };
  /** The kind of an error the stream reported without an HTTP status. */
  streamKind: ModelErrorKind;
  words: ProviderWords;
}

/** An HTTP status the SDK gave up on, as one of our errors (the same kinds for every provider). */
export function modelErrorForStatus(status: number | null, facts: StatusErrorFacts): AgentModeError {
  const { model, options, words } = facts;
  const said = facts.apiMessage ? ` (the API said: ${facts.apiMessage})` : '';
  if (status !== null && words.overloadedStatuses.includes(status)) {
    return new ModelApiError(
      'overloaded',
      `The API is overloaded (${status}) even after retries${said}. Try again later.`,
      status,
      options,
    );
  }
  switch (status) {
    case 401:
      return new ModelAuthenticationError(`The API key was refused (401)${said}. Check ${words.keyVariable}.`, 401);
    case 402:
      return new ModelAuthenticationError(`The account behind the API key cannot be billed (402)${said}.`, 402);
    case 403:
      return new ModelAuthenticationError(`The API key may not use model "${model}" or this API (403)${said}.`, 403);
    case 400:
      return new ModelApiError('bad_request', `The API rejected the request (400)${said}.`, 400, options);
    case 404:
      return new ModelApiError(
        'not_found',
        `Model "${model}" or the API endpoint was not found${words.endpoint} (404)${said}. Check --model and ${words.baseUrlVariable}.`,
        404,
        options,
      );
    case 413:
      return new ModelApiError('too_large', `The request is too large for the API (413)${said}.`, 413, options);
    case 429:
      return new ModelApiError(
        'rate_limited',
        `Rate limited by the API (429) even after retries${said}. Wait, or lower the request rate.`,
        429,
        options,
      );
    case null:
      return new ModelApiError(facts.streamKind, `The API stream reported an error${said || `: ${facts.fallbackText}`}.`, null, options);
    default:
      if (status >= 500) return new ModelApiError('server', `The API failed (${status}) even after retries${said}.`, status, options);
      return new ModelApiError('unknown', `The API answered ${status}${said || `: ${facts.fallbackText}`}.`, status, options);
  }
}

/** The reason behind a connection error (the SDK wraps the network's own error). */
export function causeText(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error.message;
}
