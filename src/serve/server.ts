// `ironbees serve`'s HTTP server: the Hono app on Node's http server, bound to one host and port.

import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(app: Hono, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            // Followers (SSE) would hold the server open: their connections end with it.
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    // Longer than the clients' idle keep-alive (undici's follows the server's hint, minus a second):
    // a client never sends on a connection the server is just closing.
    const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
    http.keepAliveTimeout = 65_000;
    http.headersTimeout = 66_000;
    server.once('error', reject);
  });
}
