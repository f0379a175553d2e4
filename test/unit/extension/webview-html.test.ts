import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type * as vscode from 'vscode';
import { createNonce, renderWebviewHtml } from '../../../src/extension/webview/html';

const uri = (value: string): vscode.Uri => ({ toString: () => value }) as unknown as vscode.Uri;
const assets = {
  script: uri('https://x.vscode-cdn.net/dist/webview/main.js'),
  styles: [uri('https://x.vscode-cdn.net/dist/webview/main.css')],
  bundlePresent: true,
};

describe('webview html', () => {
  it('allows only its own nonce for scripts and nothing by default: the whole CSP, exactly', () => {
    const html = renderWebviewHtml('https://x.vscode-cdn.net', assets, 'abc123');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    assert.equal(
      csp,
      "default-src 'none'; style-src https://x.vscode-cdn.net; font-src https://x.vscode-cdn.net; img-src https://x.vscode-cdn.net data:; " +
        "script-src 'nonce-abc123'; base-uri 'none'; form-action 'none'",
    );
    assert.equal(html.match(/Content-Security-Policy/g)?.length, 1, 'one policy, in the head');
    assert.match(html, /<script nonce="abc123" src="https:\/\/x\.vscode-cdn\.net\/dist\/webview\/main\.js"><\/script>/);
    assert.match(html, /<div id="root"><\/div>/);
  });

  it('makes a fresh, unguessable nonce each time', () => {
    const a = createNonce();
    assert.match(a, /^[A-Za-z0-9]{16,}$/);
    assert.notEqual(a, createNonce());
  });

  it('says how to build the panel when the bundle is missing, with no script', () => {
    const html = renderWebviewHtml('https://x', { ...assets, bundlePresent: false });
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /npm run build/);
  });
});
