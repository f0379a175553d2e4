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
      app.get('/assets/browser.css', (c) => c.body(BROWSER_CSS, 200, { 'content-type': TYPES.css }));
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

/** The editor's theme variables the panel's styles use, given values for a browser (VS Code's Dark Modern). */
const BROWSER_CSS = `:root {
  --vscode-font-family: system-ui, -apple-system, "Segoe UI", Ubuntu, sans-serif;
  --vscode-font-size: 13px;
  --vscode-font-weight: normal;
  --vscode-editor-font-family: ui-monospace, "Cascadia Code", "DejaVu Sans Mono", monospace;
  --vscode-foreground: #cccccc;
  --vscode-descriptionForeground: #9d9d9d;
  --vscode-disabledForeground: #6e7681;
  --vscode-errorForeground: #f85149;
  --vscode-editorWarning-foreground: #cca700;
  --vscode-icon-foreground: #cccccc;
  --vscode-focusBorder: #0078d4;
  --vscode-editor-background: #1f1f1f;
  --vscode-sideBar-background: #181818;
  --vscode-editorWidget-background: #202020;
  --vscode-widget-border: #313131;
  --vscode-panel-border: #2b2b2b;
  --vscode-sideBarSectionHeader-border: #2b2b2b;
  --vscode-textLink-foreground: #4daafc;
  --vscode-textLink-activeForeground: #4daafc;
  --vscode-textCodeBlock-background: #2b2b2b;
  --vscode-toolbar-hoverBackground: #5a5d5e50;
  --vscode-charts-green: #89d185;
  --vscode-charts-red: #f14c4c;
  --vscode-charts-yellow: #cca700;
  --vscode-charts-blue: #3794ff;
  --vscode-testing-iconPassed: #73c991;
  --vscode-testing-iconFailed: #f14c4c;
  --vscode-gitDecoration-addedResourceForeground: #81b88b;
  --vscode-gitDecoration-deletedResourceForeground: #c74e39;
  --vscode-diffEditor-insertedLineBackground: #9bb95533;
  --vscode-diffEditor-removedLineBackground: #ff000033;
  --vscode-input-background: #313131;
  --vscode-input-foreground: #cccccc;
  --vscode-input-border: #3c3c3c;
  --vscode-input-placeholderForeground: #989898;
  --vscode-dropdown-background: #313131;
  --vscode-dropdown-foreground: #cccccc;
  --vscode-dropdown-border: #3c3c3c;
  --vscode-inputValidation-infoBackground: #063b49;
  --vscode-inputValidation-infoBorder: #007acc;
  --vscode-inputValidation-warningBackground: #352a05;
  --vscode-inputValidation-warningBorder: #b89500;
  --vscode-inputValidation-errorBackground: #5a1d1d;
  --vscode-inputValidation-errorBorder: #be1100;
  --vscode-button-background: #0078d4;
  --vscode-button-foreground: #ffffff;
  --vscode-button-hoverBackground: #026ec1;
  --vscode-button-border: #ffffff12;
  --vscode-button-secondaryBackground: #313131;
  --vscode-button-secondaryForeground: #cccccc;
  --vscode-button-secondaryHoverBackground: #3c3c3c;
  --vscode-badge-background: #616161;
  --vscode-badge-foreground: #f8f8f8;
}
body.ironbees-browser {
  margin: 0 auto;
  max-width: 760px;
  padding: 12px 16px;
  background: var(--vscode-sideBar-background);
  color: var(--vscode-foreground);
  font-family: var(--vscode-font-family);
  font-size: var(--vscode-font-size);
}
`;
