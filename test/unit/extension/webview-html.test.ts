import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type * as vscode from 'vscode';
import { createNonce, renderWebviewHtml } from '../../../src/extension/webview/html';

const uri = (value: string): vscode.Uri => ({ toString: () => value }) as unknown as vscode.Uri;
const assets = { script: uri('https://x.vscode-cdn.net/dist/webview/main.js'), styles: [uri('https://x.vscode-cdn.net/dist/webview/main.css')], bundlePresent: true };

describe('webview html', () => {
  it('allows only its own nonce for scripts and nothing by default', () => {
    const html = renderWebviewHtml('https://x.vscode-cdn.net', assets, 'abc123');
    const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
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
