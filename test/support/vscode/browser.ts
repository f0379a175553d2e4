// Debian's chromium driven by playwright-core: the workbench client for both the extension-host
// suites and the end-to-end test (VS Code's server starts an extension host only when a client connects).
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { chromiumPath, ensureChromium } from './paths';

export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Headless chromium; Playwright gives it a fresh profile (never pass --user-data-dir here). */
export function launchBrowser(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs], timeout: 60_000 });
}
