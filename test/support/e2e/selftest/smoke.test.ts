// Proves the end-to-end helpers on their own: code-server serves a workspace copy with a packaged
// .vsix installed, chromium shows the workbench, the palette runs the extension's command, and a
// screenshot lands in test-results/. Uses the runner's throwaway extension, not the real one.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, packageExtension, repoRoot, runCommand, shot, startCodeServer, waitForWorkbench } from '..';
import type { RunningCodeServer } from '..';

describe('e2e helpers (code-server + chromium)', function () {
  this.timeout(240_000);
  let scratch: string;
  let server: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'ironbees-e2e-smoke-'));
    const vsix = packageExtension(join(repoRoot, 'test', 'support', 'vscode', 'selftest', 'extension'), join(scratch, 'selftest.vsix'));
    server = await startCodeServer({ vsixPath: vsix, workspace: join(repoRoot, 'test', 'fixtures', 'calculator') });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serves the workbench on 127.0.0.1 with the workspace copy open', async () => {
    assert.match(server?.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/\?folder=/);
    await page.goto(server?.url ?? '', { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    // The explorer shows the fixture's solution file, so the copy (not some other folder) is open.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'Calculator.slnx' }).first().waitFor({ timeout: 30_000 });
  });

  it('runs the installed extension command from the palette and takes a screenshot', async () => {
    await runCommand(page, 'Ironbees Self-test: Hello');
    // `notification-fade-in-done`: the toast has finished sliding in, so the screenshot shows it.
    await page
      .locator('.notifications-toasts .notification-fade-in-done', { hasText: 'hello from the Ironbees self-test' })
      .waitFor({ timeout: 30_000 });
    const path = await shot(page, 'selftest-smoke');
    assert.ok(existsSync(path));
  });
});
