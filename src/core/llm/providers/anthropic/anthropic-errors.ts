// Turns what the Anthropic SDK throws into our error hierarchy (../../errors.ts), with a message a
// person can act on.

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { AgentModeError } from '../../../errors';
import { ModelApiError, causeText, modelErrorForStatus } from '../../errors';

export function mapModelError(error: unknown, context: { model: string; baseURL?: string }): AgentModeError {
  if (error instanceof AgentModeError) return error;
  if (error instanceof APIUserAbortError) {
    return new ModelApiError('cancelled', 'The model call was cancelled.', null, { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelApiError('timeout', 'The model call timed out (after the SDK retries).', null, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const where = context.baseURL ? ` at ${context.baseURL}` : '';
    return new ModelApiError('connection', `Could not reach the Anthropic API${where}: ${causeText(error)}`, null, { cause: error });
  }
  if (error instanceof APIError) return mapStatusError(error, context.model);
  // fetch's own word (passed on by the SDK) for a response whose connection closed mid-stream: an
  // outage, as a connection error is, not a bug.
  if (error instanceof Error && error.message === 'terminated') {
    const where = context.baseURL ? ` to ${context.baseURL}` : '';
    return new ModelApiError('connection', `The connection${where} was cut in the middle of the answer; nothing of it was kept.`, null, {
      cause: error,
    });
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new ModelApiError('cancelled', 'The model call was cancelled.', null, { cause: error });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new ModelApiError('unknown', `The model call failed: ${text}`, null, { cause: error });
}

function mapStatusError(error: APIError, model: string): AgentModeError {
  return modelErrorForStatus(error.status ?? null, {
    model,
    apiMessage: error.apiMessage,
    fallbackText: error.message,
    options: { cause: error, requestId: error.requestID ?? null },
    // A mid-stream `event: error` arrives without an HTTP status; its type says what happened.
    streamKind: error.type === 'overloaded_error' ? 'overloaded' : 'server',
    words: { keyVariable: 'ANTHROPIC_API_KEY', baseUrlVariable: 'ANTHROPIC_BASE_URL', endpoint: '', overloadedStatuses: [529] },
  });
}
