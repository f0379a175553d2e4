// A small Server-Sent Events reader over fetch, for tests of `ironbees serve`: events as they come,
// with their ids, and a way to wait for one that matches.

export interface SseEvent {
  id: string;
  event: string;
  data: string;
}

export interface SseFollow {
  readonly events: SseEvent[];
  /** Resolves with the first event (seen so far or later) that matches; rejects if the stream ends first. */
  waitFor(match: (event: SseEvent) => boolean): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function followSse(url: string, headers: Record<string, string>): Promise<SseFollow> {
  const controller = new AbortController();
  const open = (): Promise<Response> => fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  // A GET may be sent again when the kept-alive connection it went out on was closed under it.
  const response = await open().catch(open);
  if (response.status !== 200 || !response.body) throw new Error(`SSE ${url}: HTTP ${response.status} ${await response.text()}`);
  const events: SseEvent[] = [];
  const waiters: Array<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; reject: (e: Error) => void }> = [];
  let done = false;
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<SseEvent> & { data?: string } = {};
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.data !== undefined) {
              const event = { id: current.id ?? '', event: current.event ?? 'message', data: current.data };
              events.push(event);
              for (const w of [...waiters]) {
                if (w.match(event)) {
                  waiters.splice(waiters.indexOf(w), 1);
                  w.resolve(event);
                }
              }
            }
            current = {};
          } else if (!line.startsWith(':')) {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
            else if (field === 'id' || field === 'event') current[field] = value;
          }
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      for (const w of waiters.splice(0)) w.reject(new Error('the event stream ended before the awaited event'));
    }
  })();
  return {
    events,
    ended,
    waitFor(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      if (done) return Promise.reject(new Error('the event stream ended before the awaited event'));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    close: () => controller.abort(),
  };
}

/** Matches a `state` event whose CodingState is at `node`. */
export function atNode(node: string): (event: SseEvent) => boolean {
  return (event) => event.event === 'state' && (JSON.parse(event.data) as { currentNode: string }).currentNode === node;
}
