// A Messages API (or OpenAI chat completions) endpoint that starts a streamed answer and then fails it, for the faults the
// scripted fake (fake-anthropic.ts) cannot make: the connection cut mid-stream, or the stream
// stalling after its first event. Listens on 127.0.0.1 only; close() ends every open socket.

import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StreamFault = 'cut' | 'stall';

export interface StreamFaultServer {
  readonly url: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

function messageStart(): string {
  const message = {
    id: 'msg_fault',
    type: 'message',
    role: 'assistant',
    model: 'claude-fault',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
  const blockStart = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
  const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ans' } };
  return (
    `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message })}\n\n` +
    `event: content_block_start\ndata: ${JSON.stringify(blockStart)}\n\n` +
    `event: content_block_delta\ndata: ${JSON.stringify(delta)}\n\n`
  );
}

/** The first chunk of an OpenAI-compatible chat completion stream. */
function chatChunk(): string {
  const chunk = {
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-fault',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ans' }, finish_reason: null }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Every request gets the first events of an answer (Anthropic's or OpenAI's, by path), then the fault. */
export async function startStreamFaultServer(fault: StreamFault): Promise<StreamFaultServer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(req.url?.includes('/chat/completions') ? chatChunk() : messageStart());
      if (fault === 'cut') setTimeout(() => res.socket?.destroy(), 20).unref();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
