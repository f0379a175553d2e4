// The side panel's HTML: a strict CSP (`default-src 'none'`, scripts only with this load's nonce,
// styles and fonts only from the extension's dist/webview, no <base>, no form targets), the bundle's CSS, the codicon font,
// and one `<div id="root">` for React. Without a built bundle it says how to build one.

import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';

export interface WebviewAssets {
  script: vscode.Uri;
  styles: vscode.Uri[];
  /** False when dist/webview/main.js has not been built. */
  bundlePresent: boolean;
}

export function createNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function renderWebviewHtml(cspSource: string, assets: WebviewAssets, nonce = createNonce()): string {
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
    // Not covered by default-src: no <base> may redirect the bundle's URLs, no form may post anywhere.
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const styles = assets.styles.map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri.toString())}">`).join('\n    ');
  const body = assets.bundlePresent
    ? `<div id="root"></div>\n    <script nonce="${nonce}" src="${escapeAttribute(assets.script.toString())}"></script>`
    : '<p>The Ironbees panel is not built. Run <code>npm run build</code> in the extension folder and reload the window.</p>';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>Ironbees</title>
  </head>
  <body>
    ${body}
  </body>
</html>`;
}
