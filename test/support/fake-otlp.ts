// A local OTLP/HTTP trace receiver on 127.0.0.1 (JSON encoding, POST /v1/traces) for the trace export
// tests: it keeps every span it is sent, flattened, with its attributes as a plain object.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  status: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** The span's events (name, time, attributes). */
  events: Array<{ name: string; atMs: number; attributes: Record<string, unknown> }>;
}

export interface FakeOtlp {
  /** The base URL (http://127.0.0.1:PORT), as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** The request paths and content types seen. */
  requests: Array<{ path: string; contentType: string }>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
        status?: { code?: number; message?: string };
        attributes?: KeyValue[];
        events?: Array<{ name: string; timeUnixNano: string | number; attributes?: KeyValue[] }>;
      }>;
    }>;
  }>;
}

/** `answerAfterMs`: the receiver takes the spans and answers only after this long (a slow collector). */
export async function startFakeOtlp(options: { answerAfterMs?: number } = {}): Promise<FakeOtlp> {
  const spans: ReceivedSpan[] = [];
  const requests: FakeOtlp['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => setTimeout(() => answer(), options.answerAfterMs ?? 0));
    const answer = (): void => {
      requests.push({ path: req.url ?? '', contentType: String(req.headers['content-type'] ?? '') });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
              endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
              status: span.status ?? {},
              attributes: attributesOf(span.attributes),
              resource,
              events: (span.events ?? []).map((event) => ({
                name: event.name,
                atMs: Number(BigInt(event.timeUnixNano) / 1_000_000n),
                attributes: attributesOf(event.attributes),
              })),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
