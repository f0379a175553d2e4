// The demo model's words arrive as a real model's do: a few words at a time over a moment, so a
// person trying `--demo` (or the panel) sees the live activity stream. Only when someone listens
// (the request has `onText`); the answer itself is the scripted one, unchanged.

import type { ModelClient, ModelRequest, ModelResponse } from '../../port';

/** Pieces a turn's words are told in, and the pause before each. */
const PIECES = 5;
const PAUSE_MS = 80;

export class StreamingDemoClient implements ModelClient {
  constructor(private readonly inner: ModelClient) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const { onText, ...rest } = request;
    const response = await this.inner.complete(rest);
    if (!onText) return response;
    for (const block of response.content) {
      if (block.type !== 'text') continue;
      for (const piece of pieces(block.text, PIECES)) {
        await pause(PAUSE_MS, request.signal);
        onText(piece);
      }
    }
    return response;
  }
}

/** The text cut at word boundaries into at most `count` pieces that join back to it exactly. */
export function pieces(text: string, count: number): string[] {
  const words = text.split(/(?<=\s)/);
  const size = Math.ceil(words.length / count);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(''));
  return out;
}

/** Waits `ms`, or less when the call is cancelled; leaves no listener on the run's signal. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
