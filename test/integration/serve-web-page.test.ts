// The web page of `ironbees serve` in real Chromium (playwright-core): a one-time login URL opens an
// HttpOnly, SameSite=Strict session; the panel, talking over SSE + POST, does a whole run (request,
// a plan rejected with feedback, the next one edited and approved, the diff read in the page hunk by
// hunk, one hunk rejected with a reason and one accepted, the coder's next proposal accepted,
// SUCCESS, validation before → after, HANDOFF.md) against real dotnet and the fake Messages API. The screenshots go to media/screenshots/ (README shows them).

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { REPO_ROOT, ensureCliBuilt, removeDir } from '../support/cli-harness';
import { startServer, stopServer } from '../support/serve-harness';
import type { Server } from '../support/serve-harness';
import { launchBrowser } from '../support/vscode/browser';
import {
  AFTER_REVIEW,
  DOC_COMMENT,
  FIXED,
  ORIGINAL,
  REASON,
  SOURCE,
  firstPlanTurn,
  plainFixTurns,
  twoHunkTurns,
} from '../support/two-hunk-review';

const TOKEN = 'web-page-test-token-0123456789';
const PLAN_FEEDBACK = 'Also document the Calc class.';
const EDITED_STEP = 'Return a / b, edited in the page';
const SHOTS = path.join(REPO_ROOT, 'media', 'screenshots');

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

  it('runs: request → plan rejected, then edited and approved → one hunk rejected with a reason, one accepted in the page → the coder tries again → SUCCESS', async () => {
    fake.enqueue(firstPlanTurn(), ...twoHunkTurns(), ...plainFixTurns());
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
    // The first plan is rejected with feedback; the planner reads it and plans again.
    await page.getByTestId('reject-plan').waitFor({ timeout: 300_000 });
    await page.getByTestId('reject-plan').click();
    await page.getByTestId('plan-feedback').fill(PLAN_FEEDBACK);
    const planned = fake.requests.length;
    await page.getByTestId('send-plan-feedback').click();
    const secondPlan = page.locator('[data-testid="run"][data-node="WAIT_PLAN_APPROVAL"] [data-testid="plan-summary"]', {
      hasText: 'Document Calc',
    });
    await secondPlan.waitFor({ timeout: 300_000 });
    assert.ok(JSON.stringify(fake.requests[planned].body).includes(PLAN_FEEDBACK), 'the planner read the feedback');
    assert.equal(await page.getByTestId('plan-step').count(), 1);
    await page.screenshot({ path: path.join(SHOTS, 'web-01-plan.png'), fullPage: true });
    // Approved as edited in the page: the coder works from the edited step.
    await page.getByTestId('edit-plan').click();
    await page.getByTestId('step-description').fill(EDITED_STEP);
    const coded = fake.requests.length;
    await page.getByTestId('approve-edited-plan').click();

    // The proposal, hunk by hunk: a comment above the class, and Divide through double.
    const hunk = (index: number) => page.locator(`[data-testid="diff-hunk"][data-hunk="${index}"]`);
    await hunk(1).waitFor({ timeout: 300_000 });
    assert.ok(JSON.stringify(fake.requests[coded].body).includes(EDITED_STEP), 'the coder got the edited plan');
    assert.equal(await page.getByTestId('diff-hunk').count(), 2);
    assert.deepEqual(await hunk(0).locator('tr.diff-added td.diff-code').allInnerTexts(), [DOC_COMMENT]);
    assert.deepEqual(await hunk(1).locator('tr.diff-removed td.diff-code').allInnerTexts(), ['        return a * b;']);
    assert.deepEqual(await hunk(1).locator('tr.diff-added td.diff-code').allInnerTexts(), ['        return (int)((double)a / b);']);
    // The model's text is shown as text: no element made of it, no script run.
    assert.equal(await page.locator('[data-testid="diff-inline"] img, [data-testid="diff-inline"] b').count(), 0);
    assert.equal(await page.evaluate('window.__ironbeesXss'), undefined);
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), ORIGINAL, 'nothing on disk before the review');

    await hunk(0).getByTestId('accept-hunk').click();
    await page.locator('[data-testid="diff-hunk"][data-hunk="0"][data-verdict="accepted"]').waitFor();
    await hunk(1).getByTestId('reject-hunk').click();
    await hunk(1).getByTestId('hunk-reject-reason').fill(REASON);
    await hunk(1).getByTestId('confirm-reject-hunk').click();
    await page.locator('[data-testid="diff-hunk"][data-hunk="1"][data-verdict="rejected"]').waitFor();
    assert.equal(await hunk(1).getByTestId('hunk-reason').innerText(), REASON);
    await page.locator('[data-testid="file-row"][data-status="partial"]').waitFor();
    assert.equal(await page.getByTestId('review-tally').innerText(), '0 accepted · 1 partly · 0 rejected · 0 to review');
    await page.screenshot({ path: path.join(SHOTS, 'web-02-diff-review.png'), fullPage: true });
    const asked = fake.requests.length;
    await page.getByTestId('submit-review').click();

    // Only hunk 1 is applied; Divide still fails, so the coder reads the reason and proposes again.
    const plainFix = page.locator('[data-testid="diff-hunk"][data-verdict="pending"] tr.diff-added td.diff-code', {
      hasText: /^\s*return a \/ b;$/,
    });
    await plainFix.waitFor({ timeout: 300_000 });
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), AFTER_REVIEW, 'exactly the accepted hunk on disk');
    assert.ok(JSON.stringify(fake.requests[asked].body).includes(`was rejected and not applied. Reason: ${REASON}`));
    await page.locator('[data-testid="file-row"][data-status="pending"]').waitFor();
    await page.getByTestId('accept-all').click();

    await page.locator('[data-testid="run"][data-node="SUCCESS"]').waitFor({ timeout: 300_000 });
    await page.screenshot({ path: path.join(SHOTS, 'web-03-success.png'), fullPage: true });
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), FIXED);
    assert.equal(await page.getByTestId('failed-before-after').innerText(), '1 → 0');
    // The runs list: this run, ended in success.
    await page.locator('[data-testid="history-row"]', { hasText: 'Success' }).waitFor();
    assert.equal(await page.getByTestId('history-row').count(), 1);
    // HANDOFF.md opens in a new tab, served as text.
    const [handoff] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-handoff').click()]);
    await handoff.waitForLoadState();
    assert.match(await handoff.locator('body').innerText(), /^# Ironbees hand-off — run \S+/);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.match(metrics, /^ironbees_runs_total\{outcome="success"\} 1$/m);
    assert.match(metrics, /^ironbees_iterations_total 2$/m);
    await context.close();
  });
});
