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

/** F1, type the command's title after `>`, Enter. Waits until the palette shows a matching item first. */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Enter');
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
