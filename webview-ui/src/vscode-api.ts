// The one door to the extension. `acquireVsCodeApi` may be called only once per webview, so it is
// taken here and shared. In a page served by `ironbees serve` the same messages go over HTTP
// (transport-http.ts); elsewhere (a plain page while developing the styles) to the console.

import type { WebviewMessage } from '../../src/shared/protocol';
import { httpTransport, isServedPage } from './transport-http';
import type { PanelTransport } from './transport-http';

type VsCodeApi = PanelTransport;

declare global {
  // Injected by VS Code into every webview; absent elsewhere.
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

const api: VsCodeApi =
  typeof globalThis.acquireVsCodeApi === 'function'
    ? globalThis.acquireVsCodeApi()
    : isServedPage()
      ? httpTransport()
      : {
          postMessage: (message) => console.info('[ironbees webview → extension]', message),
          getState: () => undefined,
          setState: () => undefined,
        };

export function send(message: WebviewMessage): void {
  api.postMessage(message);
}

/** Drafts the person is typing, kept by VS Code across hide/show and reloads of the webview. */
export interface Drafts {
  request: string;
}

export function loadDrafts(): Drafts {
  const saved = api.getState();
  if (typeof saved === 'object' && saved !== null && typeof (saved as { request?: unknown }).request === 'string') {
    return { request: (saved as { request: string }).request };
  }
  return { request: '' };
}

export function saveDrafts(drafts: Drafts): void {
  api.setState(drafts);
}
