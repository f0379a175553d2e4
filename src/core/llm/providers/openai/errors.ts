// Turns what the OpenAI SDK throws into our error hierarchy (the same kinds as for Anthropic, so
// retries, fallback and the CLI's exit codes do not care which provider failed). By the time an
// error reaches here the SDK has retried what is worth retrying (408, 409, 429, 5xx, connection).

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { AgentModeError } from '../../../errors';
import { ModelApiError, ModelAuthenticationError } from '../../errors';

export function mapOpenAIError(error: unknown, context: { model: string; baseURL: string }): AgentModeError {
  if (error instanceof AgentModeError) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ModelApiError('cancelled', 'The model call was cancelled.', null, { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelApiError('timeout', 'The model call timed out (after the SDK retries).', null, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelApiError('connection', `Could not reach the OpenAI-compatible API at ${context.baseURL}: ${causeText(error)}`, null, { cause: error });
  }
  if (error instanceof APIError) return mapStatusError(error, context);
  if (error instanceof OpenAIError) {
    // The SDK's own complaint about the stream, e.g. a stream cut before its finish_reason.
    return new ModelApiError('connection', `The OpenAI-compatible stream broke off: ${error.message}`, null, { cause: error });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new ModelApiError('unknown', `The model call failed: ${text}`, null, { cause: error });
}

function mapStatusError(error: APIError, context: { model: string; baseURL: string }): AgentModeError {
  const status = typeof error.status === 'number' ? error.status : null;
  const apiMessage = (error.error as { message?: unknown } | undefined)?.message;
  const said = typeof apiMessage === 'string' && apiMessage ? ` (the API said: ${apiMessage})` : '';
  const options = { cause: error, requestId: error.requestID ?? null };
  switch (status) {
    case 401:
      return new ModelAuthenticationError(`The API key was refused (401)${said}. Check OPENAI_API_KEY.`, 401);
    case 402:
      return new ModelAuthenticationError(`The account behind the API key cannot be billed (402)${said}.`, 402);
    case 403:
      return new ModelAuthenticationError(`The API key may not use model "${context.model}" or this API (403)${said}.`, 403);
    case 400:
      return new ModelApiError('bad_request', `The API rejected the request (400)${said}.`, 400, options);
    case 404:
      return new ModelApiError('not_found', `Model "${context.model}" or the API endpoint was not found at ${context.baseURL} (404)${said}. Check --model and OPENAI_BASE_URL.`, 404, options);
    case 413:
      return new ModelApiError('too_large', `The request is too large for the API (413)${said}.`, 413, options);
    case 429:
      return new ModelApiError('rate_limited', `Rate limited by the API (429) even after retries${said}. Wait, or lower the request rate.`, 429, options);
    case 503:
    case 529:
      return new ModelApiError('overloaded', `The API is overloaded (${status}) even after retries${said}. Try again later.`, status, options);
    default:
      if (status !== null && status >= 500) return new ModelApiError('server', `The API failed (${status}) even after retries${said}.`, status, options);
      if (status === null) return new ModelApiError('server', `The API stream reported an error${said || `: ${error.message}`}.`, null, options);
      return new ModelApiError('unknown', `The API answered ${status}${said || `: ${error.message}`}.`, status, options);
  }
}

function causeText(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error.message;
}
