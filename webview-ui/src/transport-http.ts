// The panel's second transport: in a browser page served by `ironbees serve`, the same protocol as in
// the editor (src/shared/protocol.ts) rides on the served API — the page's messages are POSTed to
// /api/panel, the server's come from the SSE stream /api/panel/events — and are handed to the panel as
// the window `message` events the editor's bridge would make. The session cookie authenticates both.

import type { WebviewMessage } from '../../src/shared/protocol';

export interface PanelTransport {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

const DRAFTS_KEY = 'ironbees.drafts';

function deliver(data: unknown): void {
  window.dispatchEvent(new MessageEvent('message', { data }));
}

/** Served pages say so in a meta tag; the editor's webview has none. */
export function isServedPage(): boolean {
  return typeof document !== 'undefined' && document.querySelector('meta[name="ironbees-transport"][content="http"]') !== null;
}

export function httpTransport(): PanelTransport {
  // EventSource reconnects by itself; each connection starts with a full snapshot of the panel.
  const events = new EventSource('/api/panel/events');
  events.onmessage = (event: MessageEvent<string>) => {
    try {
      deliver(JSON.parse(event.data));
    } catch {
      // not a message of the protocol: ignored, as the panel ignores unknown messages
    }
  };
  // One POST at a time, in the order sent: a verdict must reach the server before the submit after it.
  let previous: Promise<void> = Promise.resolve();
  return {
    postMessage(message) {
      const sent = message as WebviewMessage;
      // The hand-off opens as the served Markdown in a new tab; the diffs show inline in the page.
      if (sent.type === 'openHandoff') {
        window.open(`/api/runs/${encodeURIComponent(sent.runId)}/handoff`, '_blank', 'noopener');
        return;
      }
      previous = previous.then(() =>
        fetch('/api/panel', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          credentials: 'same-origin',
          body: JSON.stringify(sent),
        })
          .then(async (response) => {
            const body = (await response.json()) as { replies?: unknown[]; error?: string };
            if (!response.ok) deliver({ type: 'error', message: body.error ?? `HTTP ${response.status}` });
            for (const reply of body.replies ?? []) deliver(reply);
          })
          .catch((error: unknown) => deliver({ type: 'error', message: `The server did not answer: ${String(error)}` })),
      );
    },
    getState() {
      try {
        return JSON.parse(sessionStorage.getItem(DRAFTS_KEY) ?? 'null') as unknown;
      } catch {
        return undefined;
      }
    },
    setState(state) {
      sessionStorage.setItem(DRAFTS_KEY, JSON.stringify(state));
    },
  };
}
