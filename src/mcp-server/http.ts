// Streamable HTTP for the Ironbees MCP server: 127.0.0.1 only, every request needs
// `Authorization: Bearer <token>` (401 otherwise), one MCP session per client. The server can start
// runs that edit and build the workspace, so it refuses to start with a guessable token, answers
// malformed JSON with 400, and drops sessions left idle so forgotten clients do not pile up.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfigurationError } from '../core/errors';
import type { Logger } from '../core/host';

export interface HttpMcpOptions {
  port: number;
  /** From --token, IRONBEES_MCP_TOKEN or generated: whatever the source, at least MIN_TOKEN_LENGTH characters. */
  token: string | undefined;
  createServer(): Server;
  logger: Logger;
  /** A session with no request for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
}

export interface RunningHttpMcp {
  url: string;
  /** Where the server really listens, as the socket reports it. */
  address: AddressInfo;
  /** Open MCP sessions right now. */
  sessionCount(): number;
  close(): Promise<void>;
}

/** Long enough that it cannot be guessed by a local process trying tokens against the port. */
export const MIN_TOKEN_LENGTH = 16;
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const HOST = '127.0.0.1';

class BadRequest extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

export async function startHttpMcpServer(options: HttpMcpOptions): Promise<RunningHttpMcp> {
  const token = options.token ?? '';
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigurationError(
      `The MCP HTTP server needs a bearer token of at least ${MIN_TOKEN_LENGTH} characters (got ${token.length === 0 ? 'none' : `${token.length}`}); ` +
        'give a longer --token or IRONBEES_MCP_TOKEN, or set neither to have a random one made.',
      { field: 'token' },
    );
  }
  const sessions = new Map<string, Session>();
  const expected = Buffer.from(`Bearer ${token}`);
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;

  const httpServer = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      options.logger.error(`mcp http: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res
        .writeHead(401, { 'WWW-Authenticate': 'Bearer', 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: 'unauthorized: a valid bearer token is required' }));
      return;
    }
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJson(req) : undefined;
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      res
        .writeHead(error.status, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: error.message }, id: null }));
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (session) session.lastSeen = Date.now();
    let transport = session?.transport;
    if (!transport && typeof sessionId === 'string') {
      // The MCP spec's answer for a session the server no longer has: the client initializes anew.
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found (closed, or dropped after being idle); initialize a new session.' },
          id: null,
        }),
      );
      return;
    }
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        res
          .writeHead(400, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No valid session; initialize first.' }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport: created, lastSeen: Date.now() }),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await options.createServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }

  // Idle sessions are closed by a sweep that never keeps the process alive on its own.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen < idleMs) continue;
        sessions.delete(id);
        options.logger.info(`mcp http: closed session ${id} after ${Math.round(idleMs / 1000)} s without a request`);
        void session.transport.close().catch(() => undefined);
      }
    },
    Math.max(Math.min(idleMs / 2, 60_000), 10),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, HOST, () => resolve());
  }).catch((error: unknown) => {
    clearInterval(sweep);
    throw error;
  });
  const address = httpServer.address() as AddressInfo;
  return {
    url: `http://${HOST}:${address.port}/mcp`,
    address,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequest(400, `Parse error: the request body is not valid JSON (${(error as Error).message}).`);
  }
}
