// The web page at `/`: the side panel's bundle (dist/webview) in a browser, talking to the served
// API over SSE + POST instead of the editor's message bridge (webview-ui/src/transport-http.ts).

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Hono } from 'hono';

const ASSET = /^[A-Za-z0-9._-]+\.(js|css|ttf|woff2?)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  ttf: 'font/ttf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

export interface WebPage {
  mount(app: Hono): void;
}

/** `dir` holds main.js and main.css (esbuild's webview bundle). */
export function webPage(dir: string): WebPage {
  return {
    mount(app) {
      app.get('/', (c) => {
        c.header(
          'Content-Security-Policy',
          "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:; connect-src 'self'",
        );
        return c.html(PAGE);
      });
      app.get('/assets/:name', async (c) => {
        const name = c.req.param('name');
        if (!ASSET.test(name)) return c.json({ error: 'Not found.' }, 404);
        const bytes = await fs.readFile(path.join(dir, name)).catch(() => null);
        if (!bytes) return c.json({ error: 'Not found.' }, 404);
        return c.body(new Uint8Array(bytes), 200, { 'content-type': TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream' });
      });
    },
  };
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ironbees-transport" content="http">
<title>Ironbees</title>
<link rel="stylesheet" href="/assets/codicon.css">
<link rel="stylesheet" href="/assets/main.css">
<link rel="stylesheet" href="/assets/browser.css">
</head>
<body class="ironbees-browser">
<div id="root"></div>
<script src="/assets/main.js"></script>
</body>
</html>
`;
