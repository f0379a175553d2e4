// A local fake of the Anthropic Messages API, for testing the real SDK end to end without the
// network. Tests script it turn by turn; it answers streaming requests with real SSE (every event
// with its `event:` line, which the SDK needs) and plain requests with JSON. It listens on
// 127.0.0.1 only, does not keep the process alive, and answers an unscripted request with a loud
// 500 (marked not-retryable) so a test fails instead of hanging.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PASSING_REVIEW, REVIEW_TOOL, isReviewerRequest } from './fake-review';

export type FakeBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; partialJson?: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** One scripted model answer. */
export interface FakeTurn {
  kind: 'turn';
  content: FakeBlock[];
  stopReason?: string;
  usage?: FakeUsage;
  model?: string;
}

/** An HTTP error answer (429, 529, 500, 401…); the SDK retries 429/5xx by itself. */
export interface FakeError {
  status: number;
  headers?: Record<string, string>;
  type?: string;
  message?: string;
}

export interface FakeRequestBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | Array<{ type: string; text: string; cache_control?: { type: string } }>;
  tools?: Array<Record<string, unknown> & { name: string; cache_control?: { type: string } }>;
  tool_choice?: { type: string; name?: string };
  temperature?: number;
  messages: Array<{ role: string; content: string | Array<Record<string, unknown> & { type: string }> }>;
  [key: string]: unknown;
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: FakeRequestBody;
}

/**
 * A model call that hangs: `nothing` never answers (not even headers); `start` sends the headers and
 * the stream's first events (message_start, ping), then nothing more. The connection stays open
 * until the client gives up or the fake closes.
 */
export interface FakeHang {
  kind: 'hang';
  after: 'nothing' | 'start';
}

export type FakeResponder = (request: FakeRequest) => FakeTurn | FakeError | FakeHang | Promise<FakeTurn | FakeError | FakeHang>;
export type FakeScriptItem = FakeTurn | FakeError | FakeHang | FakeResponder;

export interface FakeAnthropic {
  /** Base URL to hand the SDK (`baseURL`). */
  readonly url: string;
  /** Every request received, in order (including the ones answered with errors). */
  readonly requests: FakeRequest[];
  enqueue(...items: FakeScriptItem[]): void;
  /** Scripted answers not used yet. */
  readonly pending: number;
  /** The reviewer's requests (fake-review.ts): kept apart from `requests`. */
  readonly reviewRequests: FakeRequest[];
  /** Answers for the reviewer's requests, in order; with none left a review passes. */
  enqueueReview(...items: FakeScriptItem[]): void;
  close(): Promise<void>;
}

let idCounter = 0;
const NO_USAGE: FakeUsage = { input_tokens: 0, output_tokens: 0 };

export function text(value: string, usage: FakeUsage = {}): FakeTurn {
  return turn([{ type: 'text', text: value }], { usage });
}

export function toolUse(name: string, input: unknown, options: { id?: string; text?: string; usage?: FakeUsage } = {}): FakeTurn {
  const blocks: FakeBlock[] = options.text ? [{ type: 'text', text: options.text }] : [];
  blocks.push({ type: 'tool_use', id: options.id ?? `toolu_fake_${++idCounter}`, name, input });
  return turn(blocks, { usage: options.usage });
}

export function turn(content: FakeBlock[], options: { usage?: FakeUsage; stopReason?: string; model?: string } = {}): FakeTurn {
  return { kind: 'turn', content, ...options };
}

export function hang(after: FakeHang['after'] = 'start'): FakeHang {
  return { kind: 'hang', after };
}

export function httpError(status: number, options: Omit<FakeError, 'status'> = {}): FakeError {
  return { status, ...options };
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: FakeRequest[] = [];
  const queue: FakeScriptItem[] = [];
  const reviewRequests: FakeRequest[] = [];
  const reviewQueue: FakeScriptItem[] = [];

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendError(res, { status: 500, message: `fake-anthropic crashed: ${String(error)}` }, { 'x-should-retry': 'false' });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    let body: FakeRequestBody;
    try {
      body = JSON.parse(raw || '{}') as FakeRequestBody;
    } catch {
      sendError(res, { status: 400, type: 'invalid_request_error', message: 'fake-anthropic: body is not JSON' });
      return;
    }
    const request: FakeRequest = { method: req.method ?? 'GET', path, headers: flattenHeaders(req.headers), body };
    const reviewer = isReviewerRequest((body.tools ?? []).map((tool) => String(tool.name)));
    (reviewer ? reviewRequests : requests).push(request);
    if (request.method !== 'POST' || path !== '/v1/messages') {
      sendError(res, { status: 404, type: 'not_found_error', message: `fake-anthropic: no route ${request.method} ${path}` });
      return;
    }
    const item = reviewer ? (reviewQueue.shift() ?? toolUse(REVIEW_TOOL, PASSING_REVIEW, { usage: NO_USAGE })) : queue.shift();
    if (!item) {
      sendError(
        res,
        { status: 500, message: `fake-anthropic: no scripted response left for request #${requests.length} (enqueue one)` },
        { 'x-should-retry': 'false' },
      );
      return;
    }
    const answer = typeof item === 'function' ? await item(request) : item;
    if (!('kind' in answer)) {
      sendError(res, answer, retryHeaders(answer));
      return;
    }
    if (answer.kind === 'hang') {
      if (answer.after === 'start') startHungStream(res, body.model);
      return;
    }
    if (body.stream) streamTurn(res, answer, body.model);
    else sendJson(res, 200, messageJson(answer, body.model, answer.content));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
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

function retryHeaders(error: FakeError): Record<string, string> {
  // Small waits keep the SDK's retries fast in tests (it honours retry-after-ms).
  const retryable = error.status === 429 || error.status === 408 || error.status >= 500;
  return retryable ? { 'retry-after-ms': '5', ...error.headers } : { ...error.headers };
}

function errorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return 'api_error';
}

function sendError(res: http.ServerResponse, error: FakeError, headers: Record<string, string> = {}): void {
  const body = {
    type: 'error',
    error: { type: error.type ?? errorType(error.status), message: error.message ?? `fake-anthropic: scripted ${error.status}` },
  };
  sendJson(res, error.status, body, headers);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${++idCounter}`, ...headers });
  res.end(text);
}

function fullUsage(turn: FakeTurn): Required<FakeUsage> {
  return {
    input_tokens: turn.usage?.input_tokens ?? 10,
    output_tokens: turn.usage?.output_tokens ?? 5,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: turn.usage?.cache_creation_input_tokens ?? 0,
  };
}

function stopReasonOf(turn: FakeTurn): string {
  return turn.stopReason ?? (turn.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function messageJson(turn: FakeTurn, requestedModel: string, content: unknown[]): Record<string, unknown> {
  return {
    id: `msg_fake_${++idCounter}`,
    type: 'message',
    role: 'assistant',
    model: turn.model ?? requestedModel,
    content,
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: fullUsage(turn),
  };
}

function streamTurn(res: http.ServerResponse, turn: FakeTurn, requestedModel: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${++idCounter}` });
  const send = (event: string, data: unknown): void => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = fullUsage(turn);
  const start = messageJson(turn, requestedModel, []);
  send('message_start', {
    type: 'message_start',
    message: { ...start, stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  send('ping', { type: 'ping' });
  turn.content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of chunks(block.text)) {
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
    } else if (block.type === 'thinking') {
      // As the API streams extended thinking: the text in thinking_delta pieces, then the signature.
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of chunks(block.thinking)) {
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
      }
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'redacted_thinking') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } });
    } else {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      // `partialJson`: the input as it was when the answer was cut (a stop_reason max_tokens turn).
      for (const piece of chunks(block.partialJson ?? JSON.stringify(block.input ?? {}))) {
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
    usage,
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** Headers and the first events of a stream, then silence (the response is never ended). */
function startHungStream(res: http.ServerResponse, requestedModel: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${++idCounter}` });
  const start = messageJson(turn([]), requestedModel, []);
  res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { ...start, stop_reason: null } })}\n\n`);
  res.write(`event: ping\ndata: ${JSON.stringify({ type: 'ping' })}\n\n`);
}

/** Splits into up to three pieces, as the real API streams a block in several deltas. */
function chunks(value: string): string[] {
  if (value.length < 3) return [value];
  const size = Math.ceil(value.length / 3);
  const pieces: string[] = [];
  for (let offset = 0; offset < value.length; offset += size) pieces.push(value.slice(offset, offset + size));
  return pieces;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
