// A client an editor might be, without the ACP SDK: newline-delimited JSON-RPC 2.0 over the stdio of
// a spawned `ironbees acp`. Every stdout line is kept and must be a JSON-RPC message (the test of
// "stdout carries protocol messages only"); the agent's requests are answered by a handler.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { CLI } from './cli-harness';

export interface RpcMessage {
  jsonrpc: string;
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export type AgentRequestHandler = (method: string, params: Record<string, unknown>) => Promise<unknown> | unknown;

export interface RawAcpClient {
  child: ChildProcess;
  /** Every message the agent sent, in order. */
  readonly received: RpcMessage[];
  /** stdout lines that are not a JSON-RPC 2.0 message (must stay empty). */
  readonly strayStdout: string[];
  stderr(): string;
  request(method: string, params: Record<string, unknown>): Promise<RpcMessage>;
  notify(method: string, params: Record<string, unknown>): void;
  /** The `session/update` params received so far, for one session. */
  updates(sessionId: string): Array<Record<string, unknown>>;
  /** Resolves with the first agent request (or notification) `match` accepts, already received or not. */
  waitFor(match: (message: RpcMessage) => boolean): Promise<RpcMessage>;
  close(): Promise<number | null>;
}

export function startRawAcp(
  args: readonly string[],
  env: Record<string, string | undefined>,
  onRequest: AgentRequestHandler,
): RawAcpClient {
  const child = spawn(process.execPath, [CLI, 'acp', ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const received: RpcMessage[] = [];
  const strayStdout: string[] = [];
  const pending = new Map<number, (message: RpcMessage) => void>();
  const waiters: Array<{ match: (message: RpcMessage) => boolean; resolve: (message: RpcMessage) => void }> = [];
  let nextId = 1;
  let buffer = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const send = (message: Record<string, unknown>): void => {
    child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };

  const handle = (message: RpcMessage): void => {
    received.push(message);
    for (const waiter of [...waiters]) {
      if (!waiter.match(message)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
    if (message.method === undefined && typeof message.id === 'number') {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
      return;
    }
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      const id = message.id;
      Promise.resolve(onRequest(message.method, message.params ?? {})).then(
        (result) => send({ id, result: result ?? null }),
        (error: unknown) => send({ id, error: { code: -32603, message: String(error) } }),
      );
    }
  };

  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.trim()) continue;
      let message: RpcMessage | null = null;
      try {
        message = JSON.parse(line) as RpcMessage;
      } catch {
        message = null;
      }
      if (!message || message.jsonrpc !== '2.0') strayStdout.push(line);
      else handle(message);
    }
  });

  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    received,
    strayStdout,
    stderr: () => stderr,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        send({ id, method, params });
      });
    },
    notify(method, params) {
      send({ method, params });
    },
    updates(sessionId) {
      return received
        .filter((message) => message.method === 'session/update' && message.params?.sessionId === sessionId)
        .map((message) => message.params?.update as Record<string, unknown>);
    },
    waitFor(match) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    async close() {
      child.stdin?.end();
      return exited;
    },
  };
}
