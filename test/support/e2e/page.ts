// Helpers for driving the VS Code workbench in chromium: wait for it, run a command from the
// palette, reach the Ironbees webview, take a screenshot. Selectors are VS Code's own DOM.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { repoRoot } from '../vscode/paths';

export const screenshotsDir = join(repoRoot, 'test-results');

/** Resolves once the workbench is on screen (usually ~2 s; extensions activate a few seconds later). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  // The status bar is among the last parts to render; waiting for it avoids racing the layout.
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * F1, type the command's title after `>`, Enter once a matching row shows. Retries while the
 * command is not there yet (the extension contributing it may still be loading) until the time limit.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: Math.max(1000, deadline - Date.now()) });
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ state: 'visible', timeout: Math.min(5000, Math.max(1000, deadline - Date.now())) });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (Date.now() >= deadline)
        throw new Error(`command "${title}" did not show in the palette within ${timeoutMs} ms`, { cause: error });
    }
  }
}

/** Types into an input box the extension opened (showInputBox / showQuickPick) and confirms. */
export async function answerQuickInput(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  await page.keyboard.press('Enter');
}

/**
 * The content of a webview view: VS Code hosts it in `iframe.webview.ready`, which wraps the
 * extension's page in `iframe#active-frame`. With several webviews open, pass `title` (the iframe's
 * `title` attribute usually carries the view's name) to pick one.
 */
export function agentWebview(page: Page, title?: string): FrameLocator {
  const outer = title ? `iframe.webview.ready[title*="${title}"]` : 'iframe.webview.ready';
  return page.frameLocator(outer).first().frameLocator('#active-frame');
}

/** The status bar item whose text contains `text`. */
export function statusBarItem(page: Page, text: string | RegExp): ReturnType<Page['locator']> {
  return page.locator('.statusbar .statusbar-item', { hasText: text }).first();
}

/** Saves `test-results/<name>.png` and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const path = join(screenshotsDir, `${name}.png`);
  // Finite CSS transitions (toasts sliding in) are fast-forwarded so the picture shows the end state.
  await page.screenshot({ path, animations: 'disabled' });
  return path;
}

/** Saves `media/screenshots/<name>.png` for the README, and the same picture as `test-results/<name>.png`. */
export async function readmeShot(page: Page, name: string): Promise<void> {
  const dir = join(repoRoot, 'media', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), animations: 'disabled' });
  await shot(page, name);
}

/**
 * A hunk's own Accept or Reject CodeLens in the review diff, not the review bar's "Accept File",
 * "Accept All", "Reject File" or "Reject All…" on the file's first line.
 */
export function hunkLens(page: Page, action: 'Accept' | 'Reject'): ReturnType<Page['locator']> {
  return page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: new RegExp(`${action}(?! File| All)`) });
}
