// A local webhook receiver on 127.0.0.1 for the notification tests: keeps every POST (raw body and
// headers); `failFirst` answers that many requests with 503 first, to see the sender retry.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** Resolves once a delivered (200) hook matches. */
  waitFor(match: (hook: ReceivedHook) => boolean): Promise<ReceivedHook>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { failFirst?: number } = {}): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const waiters: Array<{ match: (h: ReceivedHook) => boolean; resolve: (h: ReceivedHook) => void }> = [];
  let failures = options.failFirst ?? 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = failures > 0 ? 503 : 200;
      if (failures > 0) failures -= 1;
      const hook = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status };
      received.push(hook);
      res.writeHead(status).end();
      if (status !== 200) return;
      for (const w of [...waiters]) {
        if (w.match(hook)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(hook);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor(match) {
      const seen = received.find((h) => h.status === 200 && match(h));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
