// Turns what the OpenAI SDK throws into our error hierarchy (the same kinds as for Anthropic, so
// retries, fallback and the CLI's exit codes do not care which provider failed). By the time an
// error reaches here the SDK has retried what is worth retrying (408, 409, 429, 5xx, connection).

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { AgentModeError } from '../../../errors';
import { ModelApiError, causeText, modelErrorForStatus } from '../../errors';

export function mapOpenAIError(error: unknown, context: { model: string; baseURL: string }): AgentModeError {
  if (error instanceof AgentModeError) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ModelApiError('cancelled', 'The model call was cancelled.', null, { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelApiError('timeout', 'The model call timed out (after the SDK retries).', null, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelApiError('connection', `Could not reach the OpenAI-compatible API at ${context.baseURL}: ${causeText(error)}`, null, {
      cause: error,
    });
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
  const apiMessage = (error.error as { message?: unknown } | undefined)?.message;
  return modelErrorForStatus(typeof error.status === 'number' ? error.status : null, {
    model: context.model,
    apiMessage: typeof apiMessage === 'string' && apiMessage ? apiMessage : undefined,
    fallbackText: error.message,
    options: { cause: error, requestId: error.requestID ?? null },
    streamKind: 'server',
    words: {
      keyVariable: 'OPENAI_API_KEY',
      baseUrlVariable: 'OPENAI_BASE_URL',
      endpoint: ` at ${context.baseURL}`,
      overloadedStatuses: [503, 529],
    },
  });
}
