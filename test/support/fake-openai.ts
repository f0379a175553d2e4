// A local fake of an OpenAI-compatible Chat Completions endpoint (`POST /v1/chat/completions`),
// for testing the real `openai` SDK end to end without the network; modelled on fake-anthropic.ts.
// Streaming answers are real SSE: text and each tool call's arguments are split across several
// chunks (the arguments mid-JSON), and usage arrives in a last chunk with no choices, as
// `stream_options.include_usage` asks. It can answer with an HTTP error (429, 5xx…) or cut a
// stream before its finish_reason. Like the real API, it refuses what a reasoning model (gpt-5*,
// o1*, o3*, o4*) does not take: a temperature other than 1, and `max_tokens` (HTTP 400, before any
// scripted answer is used). 127.0.0.1 only; an unscripted request gets a loud 500 that
// the SDK does not retry, so a test fails instead of hanging.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PASSING_REVIEW, REVIEW_TOOL, isReviewerRequest } from './fake-review';

export interface FakeOpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
}

export interface FakeOpenAITurn {
  kind: 'turn';
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
  finishReason?: string;
  usage?: FakeOpenAIUsage;
  model?: string;
  /** Ends the stream after the first chunks, without a finish_reason or [DONE]. */
  cut?: boolean;
}

export interface FakeOpenAIError {
  status: number;
  headers?: Record<string, string>;
  message?: string;
  type?: string;
  param?: string;
  code?: string;
}

export interface FakeOpenAIRequestBody {
  model: string;
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  tool_choice?: unknown;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>;
  messages: Array<{
    role: string;
    content?: string | null;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  [key: string]: unknown;
}

export interface FakeOpenAIRequest {
  path: string;
  headers: Record<string, string>;
  body: FakeOpenAIRequestBody;
}

export type FakeOpenAIResponder = (request: FakeOpenAIRequest) => FakeOpenAITurn | FakeOpenAIError;
export type FakeOpenAIScriptItem = FakeOpenAITurn | FakeOpenAIError | FakeOpenAIResponder;

export interface FakeOpenAI {
  /** The base URL to hand the SDK (ends in /v1, as OPENAI_BASE_URL does). */
  readonly url: string;
  readonly requests: FakeOpenAIRequest[];
  enqueue(...items: FakeOpenAIScriptItem[]): void;
  readonly pending: number;
  /** The reviewer's requests (fake-review.ts): kept apart from `requests`. */
  readonly reviewRequests: FakeOpenAIRequest[];
  /** Answers for the reviewer's requests, in order; with none left a review passes. */
  enqueueReview(...items: FakeOpenAIScriptItem[]): void;
  close(): Promise<void>;
}

let idCounter = 0;

export function chatText(text: string, usage: FakeOpenAIUsage = {}): FakeOpenAITurn {
  return { kind: 'turn', text, usage };
}

export function chatToolCall(
  name: string,
  args: unknown,
  options: { text?: string; usage?: FakeOpenAIUsage; id?: string } = {},
): FakeOpenAITurn {
  return {
    kind: 'turn',
    ...(options.text ? { text: options.text } : {}),
    toolCalls: [{ ...(options.id ? { id: options.id } : {}), name, arguments: args }],
    ...(options.usage ? { usage: options.usage } : {}),
  };
}

export function chatError(status: number, options: Omit<FakeOpenAIError, 'status'> = {}): FakeOpenAIError {
  return { status, ...options };
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: FakeOpenAIRequest[] = [];
  const queue: FakeOpenAIScriptItem[] = [];
  const reviewRequests: FakeOpenAIRequest[] = [];
  const reviewQueue: FakeOpenAIScriptItem[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      let body: FakeOpenAIRequestBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as FakeOpenAIRequestBody;
      } catch {
        sendError(res, { status: 400, message: 'fake-openai: body is not JSON' });
        return;
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) headers[key] = Array.isArray(value) ? value.join(', ') : String(value ?? '');
      const request: FakeOpenAIRequest = { path, headers, body };
      const reviewer = isReviewerRequest((body.tools ?? []).map((tool) => String(tool.function?.name)));
      (reviewer ? reviewRequests : requests).push(request);
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        sendError(res, { status: 404, message: `fake-openai: no route ${req.method ?? ''} ${path}` });
        return;
      }
      const refused = unsupportedParameter(body);
      if (refused) {
        sendError(res, refused);
        return;
      }
      const item = reviewer
        ? (reviewQueue.shift() ?? chatToolCall(REVIEW_TOOL, PASSING_REVIEW, { usage: { prompt_tokens: 0, completion_tokens: 0 } }))
        : queue.shift();
      if (!item) {
        sendError(
          res,
          { status: 500, message: `fake-openai: no scripted response left for request #${requests.length}` },
          { 'x-should-retry': 'false' },
        );
        return;
      }
      const answer = typeof item === 'function' ? item(request) : item;
      if (!('kind' in answer)) {
        const retryable = answer.status === 429 || answer.status >= 500;
        sendError(res, answer, retryable ? { 'retry-after-ms': '5', ...answer.headers } : { ...answer.headers });
        return;
      }
      if (body.stream) streamTurn(res, answer, body.model);
      else sendJson(res, 200, completionJson(answer, body.model));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...items) => void queue.push(...items),
    get pending() {
      return queue.length;
    },
    reviewRequests,
    enqueueReview: (...items) => void reviewQueue.push(...items),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendError(res: http.ServerResponse, error: FakeOpenAIError, headers: Record<string, string> = {}): void {
  const body = {
    message: error.message ?? `fake-openai: scripted ${error.status}`,
    type: error.type ?? 'fake_error',
    param: error.param ?? null,
    code: error.code ?? null,
  };
  sendJson(res, error.status, { error: body }, headers);
}

/** The real API's own words for what its reasoning models refuse (this list is the fake's, on purpose not the client's). */
const REASONING_MODELS = /^(gpt-5|o1|o3|o4)/;

function unsupportedParameter(body: FakeOpenAIRequestBody): FakeOpenAIError | null {
  if (typeof body.model !== 'string' || !REASONING_MODELS.test(body.model)) return null;
  if (body.max_tokens !== undefined) {
    return {
      status: 400,
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    };
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return {
      status: 400,
      type: 'invalid_request_error',
      param: 'temperature',
      code: 'unsupported_value',
      message: `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
    };
  }
  return null;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${++idCounter}`, ...headers });
  res.end(JSON.stringify(body));
}

function usageJson(turn: FakeOpenAITurn): Record<string, unknown> {
  const prompt = turn.usage?.prompt_tokens ?? 10;
  const completion = turn.usage?.completion_tokens ?? 5;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: turn.usage?.cached_tokens ?? 0 },
  };
}

function finishOf(turn: FakeOpenAITurn): string {
  return turn.finishReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop');
}

function callsOf(turn: FakeOpenAITurn): Array<{ id: string; name: string; args: string }> {
  return (turn.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_fake_${++idCounter}`,
    name: call.name,
    args: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function completionJson(turn: FakeOpenAITurn, requestedModel: string): Record<string, unknown> {
  const calls = callsOf(turn);
  return {
    id: `chatcmpl-fake-${++idCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: turn.model ?? requestedModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(calls.length
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) }
            : {}),
        },
        finish_reason: finishOf(turn),
      },
    ],
    usage: usageJson(turn),
  };
}

function streamTurn(res: http.ServerResponse, turn: FakeOpenAITurn, requestedModel: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `chatcmpl-fake-${++idCounter}`;
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: turn.model ?? requestedModel };
  const send = (choices: unknown[], extra: Record<string, unknown> = {}): void =>
    void res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
  const delta = (value: Record<string, unknown>, finish: string | null = null): unknown => ({
    index: 0,
    delta: value,
    finish_reason: finish,
  });

  send([delta({ role: 'assistant', content: '' })]);
  if (turn.cut) {
    // A connection dropped mid-answer: some text, then nothing more.
    send([delta({ content: 'partial ' })]);
    res.end();
    return;
  }
  for (const piece of pieces(turn.text ?? '')) send([delta({ content: piece })]);
  callsOf(turn).forEach((call, index) => {
    // The first chunk of a call carries its id and name; the arguments follow in pieces.
    send([delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })]);
    for (const piece of pieces(call.args)) send([delta({ tool_calls: [{ index, function: { arguments: piece } }] })]);
  });
  send([delta({}, finishOf(turn))]);
  send([], { usage: usageJson(turn) });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Three roughly equal pieces, so a client must join them (and JSON is cut mid-token). */
function pieces(value: string): string[] {
  if (!value) return [];
  const size = Math.max(1, Math.ceil(value.length / 3));
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}
