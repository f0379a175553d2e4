// The web page of `ironbees serve` in real Chromium (playwright-core): a one-time login URL opens an
// HttpOnly, SameSite=Strict session; the panel, talking over SSE + POST, does a whole run (request,
// plan approval, the diff read and accepted in the page, SUCCESS) against real dotnet and the fake
// Messages API. The screenshots go to media/screenshots/ (README shows them).

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { REPO_ROOT, ensureCliBuilt, removeDir } from '../support/cli-harness';
import { startServer, stopServer } from '../support/serve-harness';
import type { Server } from '../support/serve-harness';
import { launchBrowser } from '../support/vscode/browser';

const SOURCE = 'src/Calculator/Calculator.cs';
const TOKEN = 'web-page-test-token-0123456789';
const SHOTS = path.join(REPO_ROOT, 'media', 'screenshots');
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b instead of a * b', actionType: 'MODIFY', filePath: SOURCE, rationale: '6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

describe('ironbees serve: the web page in Chromium does a whole run', function () {
  this.timeout(900_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let server: Server;
  let browser: Browser;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-web-'));
    cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'calculator'), workspace, {
      recursive: true,
      filter: (src) => !/[\\/](bin|obj|TestResults)([\\/]|$)/.test(src),
    });
    server = await startServer(workspace, { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, IRONBEES_SERVE_TOKEN: TOKEN });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    if (server) await stopServer(server);
    await fake?.close();
    removeDir(workspace);
  });

  it('without a session the page is refused; a login link works once and sets an HttpOnly, SameSite=Strict cookie', async () => {
    const anonymous = await browser.newContext();
    const refused = await (await anonymous.newPage()).goto(`${server.url}/`);
    assert.equal(refused?.status(), 401);
    await anonymous.close();
    const { url } = (await (
      await fetch(`${server.url}/api/login-codes`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as {
      url: string;
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    const opened = await page.goto(url);
    assert.equal(opened?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/', 'the code leaves the address bar');
    const [cookie] = await context.cookies();
    assert.deepEqual([cookie.name, cookie.httpOnly, cookie.sameSite], ['ironbees_session', true, 'Strict']);
    const again = await (await browser.newContext()).newPage();
    assert.equal((await again.goto(url))?.status(), 401, 'the link works once');
    await context.close();
  });

  it('runs: request → plan approved → diff read in the page and accepted → SUCCESS', async () => {
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Fixed the operator.' }),
    );
    const { url } = (await (
      await fetch(`${server.url}/api/login-codes`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as {
      url: string;
    };
    const context = await browser.newContext({ viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('request-input').fill('Fix the failing Calculator test');
    await page.getByTestId('run-button').click();
    const approve = page.getByTestId('approve-plan');
    await approve.waitFor({ timeout: 300_000 });
    assert.equal(await page.getByTestId('plan-step').count(), 1);
    await page.screenshot({ path: path.join(SHOTS, 'web-01-plan.png'), fullPage: true });
    await approve.click();

    const diff = page.getByTestId('diff-inline');
    await diff.waitFor({ timeout: 300_000 });
    assert.match(await diff.innerText(), /\+\s*return a \/ b;/);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /a \* b/, 'nothing on disk before the review');
    await page.getByTestId('accept-file').click();
    await page.locator('[data-testid="file-row"][data-status="accepted"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'web-02-diff-review.png'), fullPage: true });
    await page.getByTestId('submit-review').click();

    await page.locator('[data-testid="run"][data-node="SUCCESS"]').waitFor({ timeout: 300_000 });
    await page.screenshot({ path: path.join(SHOTS, 'web-03-success.png'), fullPage: true });
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.match(metrics, /^ironbees_runs_total\{outcome="success"\} 1$/m);
    await context.close();
  });
});
