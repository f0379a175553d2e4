// Steps of an agent run in the browser that more than one end-to-end test takes: the packaged
// .vsix, a run started from the command palette, the plan awaited, the Ironbees panel told apart
// from other webviews (a Markdown preview is one too).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { npmCommand } from '../../../scripts/tool-command.cjs';
import { launchBrowser } from '../vscode/browser';
import { repoRoot } from '../vscode/paths';
import { startCodeServer, type RunningCodeServer } from './code-server';
import { hunkLens, runCommand, shot, statusBarItem, waitForWorkbench } from './page';

export const VSIX = join(repoRoot, 'dist', 'ironbees.vsix');
/** A step that runs real `dotnet build`/`dotnet test` of the fixture (baseline, validation) on 2 cores. */
export const DOTNET_STEP_MS = 240_000;
/** A step that only waits for the workbench or the panel to react. */
export const UI_STEP_MS = 60_000;

/** Packages the extension when the test runs on its own (run-tests.mjs packages before the e2e stage). */
export function ensurePackaged(): void {
  if (existsSync(VSIX)) return;
  const npm = npmCommand(['run', '--silent', 'package']);
  const result = spawnSync(npm.cmd, npm.args, { cwd: repoRoot, stdio: 'inherit', timeout: 300_000 });
  if (result.status !== 0 || !existsSync(VSIX)) throw new Error(`npm run package did not produce ${VSIX}`);
}

/** code-server serving a copy of the Calculator fixture with the packaged .vsix and the demo model, in chromium. */
export interface DemoWorkbench {
  server: RunningCodeServer;
  browser: Browser;
  page: Page;
  /** Closes the browser and stops code-server (never throws: it runs in `after`). */
  close(): Promise<void>;
}

/**
 * Packages if needed, starts code-server on the Calculator fixture and opens its workbench in chromium.
 * `settings` go on top of the demo model (`'ironbees.demoModel': false` with a base URL for a scripted
 * fake); `env` reaches the extension host (an `ANTHROPIC_API_KEY` for that fake).
 */
export async function openDemoWorkbench(settings: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<DemoWorkbench> {
  ensurePackaged();
  const server = await startCodeServer({
    vsixPath: VSIX,
    workspace: join(repoRoot, 'test', 'fixtures', 'calculator'),
    settings: { 'ironbees.demoModel': true, ...settings },
    env,
  });
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server.stop();
  };
  try {
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await waitForWorkbench(page);
    return { server, browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Mocha hooks for a describe block: the demo workbench opened before its tests, a screenshot named
 * `failureShot` of a failed test's screen, everything closed after. Returns the open workbench.
 * `settings` and `env` may be functions, read when the workbench opens: a fake model server started
 * in an earlier `before` hook is only then known by its URL.
 */
export function useDemoWorkbench(
  failureShot: string,
  settings: Record<string, unknown> | (() => Record<string, unknown>) = {},
  env: () => Record<string, string> = () => ({}),
): () => DemoWorkbench {
  let workbench: DemoWorkbench | undefined;
  before(async function () {
    workbench = await openDemoWorkbench(typeof settings === 'function' ? settings() : settings, env());
  });
  afterEach(async function () {
    // A failure is much easier to understand with a picture of the screen it happened on.
    if (this.currentTest?.state === 'failed' && workbench) await shot(workbench.page, failureShot).catch(() => undefined);
  });
  after(async function () {
    await workbench?.close();
  });
  return () => {
    if (!workbench) throw new Error('the demo workbench is not open (its before hook failed)');
    return workbench;
  };
}

/** Ironbees: Run Agent from the palette, with `request` typed into the input box it opens. */
/**
 * Waits until the extension reads `ironbees.maxIterations` as `count`: code-server hands the user
 * settings to the extension host a moment after it starts (later on a busy machine), and a run
 * started before that would take the default.
 */
export async function waitForMaxIterations(page: Page, count: number): Promise<void> {
  await runCommand(page, 'Ironbees: Show Agent Panel', UI_STEP_MS);
  const panel = await webviewShowing(page, '[data-testid="max-iterations"]', DOTNET_STEP_MS);
  await panel
    .getByTestId('max-iterations')
    .filter({ hasText: new RegExp(`^up to ${count} iterations?$`) })
    .waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
}

export async function startAgentRun(page: Page, request: string): Promise<void> {
  await runCommand(page, 'Ironbees: Run Agent', UI_STEP_MS);
  await page.locator('.quick-input-widget', { hasText: /request|agent|do/i }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
  await page.locator('.quick-input-widget input').fill(request);
  await page.keyboard.press('Enter');
}

/**
 * The demo model's one-iteration run to success: `request` started, its plan approved in the panel,
 * the proposed hunk accepted, the status bar at "Succeeded". Returns the panel.
 */
export async function runDemoToSuccess(page: Page, request: string): Promise<FrameLocator> {
  await waitForMaxIterations(page, 1);
  await startAgentRun(page, request);
  await waitForPlan(page, await webviewShowing(page, '[data-testid="run"]', DOTNET_STEP_MS));
  const panel = await webviewShowing(page, '[data-testid="approve-plan"]');
  await panel.getByTestId('approve-plan').click();
  const acceptHunk = hunkLens(page, 'Accept').first();
  await acceptHunk.waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
  await acceptHunk.click();
  await statusBarItem(page, /Ironbees 1\/1 · Succeeded/).waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
  return panel;
}

/**
 * Waits for the plan in `panel`; a workspace with several solutions first asks which one to build
 * (quick pick), and the first offered is taken, so the test does not depend on the fixture's layout.
 */
export async function waitForPlan(page: Page, panel: FrameLocator): Promise<void> {
  const plan = panel.getByTestId('plan');
  const pick = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
  const deadline = Date.now() + DOTNET_STEP_MS;
  while (Date.now() < deadline) {
    if (await plan.isVisible().catch(() => false)) return;
    if (await pick.isVisible().catch(() => false)) await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
  }
  throw new Error(`the plan did not appear in the side panel within ${DOTNET_STEP_MS / 1000} s`);
}

/**
 * The content of the first webview on the page that shows `selector` (e.g. the Ironbees panel's
 * `[data-testid="run"]`), waiting up to `timeoutMs` for it. With a Markdown preview open beside
 * the panel, `agentWebview(page)` could be either; this one is the right one by what it shows.
 */
export async function webviewShowing(page: Page, selector: string, timeoutMs = UI_STEP_MS): Promise<FrameLocator> {
  const frames = page.locator('iframe.webview.ready');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const count = await frames.count();
    for (let i = 0; i < count; i++) {
      const content = page.frameLocator('iframe.webview.ready').nth(i).frameLocator('#active-frame');
      if (
        (await content
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return content;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no webview showed ${selector} within ${timeoutMs / 1000} s`);
}
