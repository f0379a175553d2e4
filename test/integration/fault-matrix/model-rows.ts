// Model faults against the real Anthropic SDK: bursts of 429/529/5xx recovered by the retries,
// the same bursts past the retries ending in the right error, a stream cut mid-answer, and a
// stream that stalls (stopped by the request time limit instead of hanging).

import { AnthropicModelClient, DEFAULT_MODEL } from '../../../src/core/llm/providers/anthropic/anthropic';
import { ModelApiError } from '../../../src/core/llm/errors';
import type { ModelClient, ModelRequest } from '../../../src/core/llm/port';
import { OpenAIModelClient } from '../../../src/core/llm/providers/openai/client';
import { httpError, startFakeAnthropic, text } from '../../support/fake-anthropic';
import type { FakeScriptItem } from '../../support/fake-anthropic';
import { startStreamFaultServer } from '../../support/fault-matrix/stream-faults';
import type { StreamFault } from '../../support/fault-matrix/stream-faults';
import type { FaultRow } from './matrix';

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const REQUEST: ModelRequest = {
  model: DEFAULT_MODEL,
  system: 's',
  tools: [],
  messages: [{ role: 'user', content: 'Fix it.' }],
  maxTokens: 64,
};
const TIME_LIMIT_MS = 1_500;

/** What one call ends in: the answer, or the error kind; with the number of HTTP requests made. */
function ending(result: { text?: string; error?: unknown }, requests: number): string {
  if (result.error === undefined) return `answered "${result.text}" after ${requests} requests`;
  const kind = result.error instanceof ModelApiError ? result.error.kind : String(result.error);
  return `error ${kind} after ${requests} requests`;
}

async function scripted(items: FakeScriptItem[], maxRetries: number): Promise<string> {
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(...items);
    const client = new AnthropicModelClient({ apiKey: 'sk-test', baseURL: fake.url, maxRetries, timeoutMs: 10_000, logger: QUIET });
    const result = await client.complete(REQUEST).then(
      (response) => ({ text: response.content[0]?.type === 'text' ? response.content[0].text : '?' }),
      (error: unknown) => ({ error }),
    );
    return ending(result, fake.requests.length);
  } finally {
    await fake.close();
  }
}

async function faultyStream(fault: StreamFault, provider: 'anthropic' | 'openai' = 'anthropic'): Promise<string> {
  const server = await startStreamFaultServer(fault);
  try {
    const options = { apiKey: 'sk-test', maxRetries: 1, timeoutMs: TIME_LIMIT_MS, logger: QUIET };
    const client: ModelClient =
      provider === 'anthropic'
        ? new AnthropicModelClient({ ...options, baseURL: server.url })
        : new OpenAIModelClient({ ...options, baseURL: `${server.url}/v1` });
    const started = Date.now();
    const result = await client.complete(REQUEST).then(
      () => ({ text: 'an answer' }),
      (error: unknown) => ({ error }),
    );
    // Bounded: a stall ends within about the time limit, not whenever the server lets go.
    const bound = Date.now() - started < TIME_LIMIT_MS * 4 ? 'bounded' : 'too slow';
    return `${ending(result, server.requests)}, ${bound}`;
  } finally {
    await server.close();
  }
}

const burst = (status: number, n: number): FakeScriptItem[] =>
  Array.from({ length: n }, () => httpError(status, { headers: { 'retry-after-ms': '1' } }));

export const modelRows: FaultRow[] = [
  {
    id: 'M1',
    fault: '429 burst ×3',
    injectedAt: 'model call (planner/coder)',
    expectedEnd: 'answered "ok" after 4 requests',
    run: async () => ({ end: await scripted([...burst(429, 3), text('ok')], 4) }),
  },
  {
    id: 'M2',
    fault: '529 overloaded burst ×3',
    injectedAt: 'model call',
    expectedEnd: 'answered "ok" after 4 requests',
    run: async () => ({ end: await scripted([...burst(529, 3), text('ok')], 4) }),
  },
  {
    id: 'M3',
    fault: '500, 502, 503 in a row',
    injectedAt: 'model call',
    expectedEnd: 'answered "ok" after 4 requests',
    run: async () => ({ end: await scripted([...burst(500, 1), ...burst(502, 1), ...burst(503, 1), text('ok')], 4) }),
  },
  {
    id: 'M4',
    fault: '429 past the retries',
    injectedAt: 'model call',
    expectedEnd: 'error rate_limited after 3 requests',
    run: async () => ({ end: await scripted(burst(429, 3), 2) }),
  },
  {
    id: 'M5',
    fault: '529 past the retries',
    injectedAt: 'model call',
    expectedEnd: 'error overloaded after 3 requests',
    run: async () => ({ end: await scripted(burst(529, 3), 2) }),
  },
  {
    id: 'M6',
    fault: '503 past the retries',
    injectedAt: 'model call',
    expectedEnd: 'error server after 3 requests',
    run: async () => ({ end: await scripted(burst(503, 3), 2) }),
  },
  {
    id: 'M7',
    fault: 'stream cut mid-answer (socket closed)',
    injectedAt: 'model stream, after 3 events',
    expectedEnd: 'error connection after 1 requests, bounded',
    run: async () => ({ end: await faultyStream('cut') }),
  },
  {
    id: 'M8',
    fault: 'stream stalls mid-answer',
    injectedAt: 'model stream, after 3 events',
    expectedEnd: 'error timeout after 1 requests, bounded',
    run: async () => ({ end: await faultyStream('stall') }),
  },
  {
    id: 'M10',
    fault: 'OpenAI-compatible stream stalls mid-answer',
    injectedAt: 'chat completion stream, after 1 chunk',
    expectedEnd: 'error timeout after 1 requests, bounded',
    run: async () => ({ end: await faultyStream('stall', 'openai') }),
  },
  {
    id: 'M11',
    fault: 'OpenAI-compatible stream cut mid-answer',
    injectedAt: 'chat completion stream, after 1 chunk',
    expectedEnd: 'error connection after 1 requests, bounded',
    run: async () => ({ end: await faultyStream('cut', 'openai') }),
  },
];
