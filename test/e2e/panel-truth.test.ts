// Issue 25 in the browser: code-server with the packaged .vsix, the scripted demo model and ONE
// iteration. Reject a hunk from its CodeLens and press Escape on "Why reject…?": no decision, no
// iteration used. Reject the whole proposal with a reason on that last iteration: the coder proposes
// again (still 1/1), the proposal is accepted, validated, and the run succeeds with the outcome and
// the fixed test at the top of the panel without scrolling at 1440×900, and the terminal never
// opened (the baseline's failing test is expected); everything the run changed opens against the files
// before it. Revert: the status bar, the panel's status line,
// the timeline and the outcome all say Reverted. Screenshots go to media/screenshots/ for the README.

import { strict as assert } from 'node:assert';
import type { FrameLocator } from 'playwright-core';
import { hunkLens, readmeShot, runCommand, statusBarItem } from '../support/e2e';
import {
  DOTNET_STEP_MS,
  UI_STEP_MS,
  startAgentRun,
  useDemoWorkbench,
  waitForMaxIterations,
  waitForPlan,
  webviewShowing,
} from '../support/e2e/agent-run';

const REQUEST = 'Fix the failing Calculator test';
const REASON = 'Keep the change to the one line that is wrong';
const VIEWPORT_HEIGHT = 900;

async function runNode(panel: FrameLocator): Promise<string | null> {
  return panel.getByTestId('run').getAttribute('data-node');
}

describe('e2e: the panel as good as the engine (issue 25)', function () {
  this.timeout(900_000);
  const workbench = useDemoWorkbench('panel-truth-failure', { 'ironbees.maxIterations': 1 });

  it('Escape makes no decision; a reason on the last iteration goes back to the coder; the outcome on top; Revert everywhere', async function () {
    const page = workbench().page;
    await waitForMaxIterations(page, 1);
    await startAgentRun(page, REQUEST);
    await waitForPlan(page, await webviewShowing(page, '[data-testid="run"]', DOTNET_STEP_MS));
    const panel = await webviewShowing(page, '[data-testid="approve-plan"]');
    await panel.getByTestId('approve-plan').click();

    // 1. The hunk's Reject CodeLens asks why; Escape cancels: the file stays pending, the run waits, 1/1.
    const rejectHunk = hunkLens(page, 'Reject').first();
    await rejectHunk.waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await rejectHunk.click();
    const question = page.locator('.quick-input-widget', { hasText: /Why reject hunk 1/ });
    await question.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'hidden', timeout: UI_STEP_MS });
    const row = panel.getByTestId('file-row').first();
    assert.equal(await row.getAttribute('data-status'), 'pending', 'Escape made no decision');
    assert.equal(await runNode(panel), 'WAIT_DIFF_APPROVAL');
    await statusBarItem(page, /Ironbees 1\/1 · Changes ready for review/).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await readmeShot(page, 'escape-no-decision');

    // 2. Reject the whole proposal with a reason, on the last iteration: the coder proposes again,
    // in the same iteration; the rejected attempt keeps the person's words.
    await panel.getByTestId('reject-all').click();
    await panel.getByTestId('diff-feedback').fill(REASON);
    await panel.getByTestId('send-diff-feedback').click();
    const rejected = panel.getByTestId('attempts').locator('li[data-outcome="rejected"]');
    await rejected.first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.match(await rejected.first().innerText(), new RegExp(REASON));
    const acceptHunk = hunkLens(page, 'Accept').first();
    await acceptHunk.waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await panel.locator('[data-testid="run"][data-node="WAIT_DIFF_APPROVAL"]').waitFor({ state: 'attached', timeout: UI_STEP_MS });
    await statusBarItem(page, /Ironbees 1\/1 · Changes ready for review/).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    // One rejection, the one with the reason: the Escape in step 1 rejected nothing (read after the
    // re-proposal, so a decision Escape made late would be in the list by now).
    assert.equal(await rejected.count(), 1, 'the only rejected attempt is the one with the reason');
    await readmeShot(page, 'rejected-with-reason-proposes-again');

    // 3. Accept → validation → success: the outcome and the fixed test at the top, no scrolling.
    await acceptHunk.click();
    await statusBarItem(page, /Ironbees 1\/1 · Succeeded/).waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    const fixed = panel.getByTestId('outcome-fixed');
    await fixed.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.match(await fixed.innerText(), /fixed\s+Calculator\.Tests\.CalcTests\.Divide_ReturnsQuotient/);
    assert.equal(await panel.getByTestId('outcome-tests').innerText(), 'Failing tests 1 → 0');
    const box = await fixed.boundingBox();
    assert.ok(
      box && box.y >= 0 && box.y + box.height <= VIEWPORT_HEIGHT,
      `the fixed test is on screen without scrolling: ${JSON.stringify(box)}`,
    );
    // The terminal never opened: a failing test in the baseline is expected, not news.
    assert.equal(
      await page
        .locator('.xterm')
        .first()
        .isVisible()
        .catch(() => false),
      false,
      'no terminal on screen',
    );
    await readmeShot(page, 'success-outcome-on-top');

    // 3b. Everything the run changed, against the files before it (not against an earlier attempt).
    await runCommand(page, 'Ironbees: Show Everything the Run Changed', UI_STEP_MS);
    await page
      .locator('.tab', { hasText: /everything it changed/ })
      .first()
      .waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await page
      .locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert')
      .first()
      .waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await readmeShot(page, 'run-changes-against-original');

    // 4. Revert from the panel (confirmed in a modal): every status surface says Reverted.
    await panel.getByTestId('handoff-revert').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await dialog.locator('.monaco-button', { hasText: /^Revert$/ }).click();
    await statusBarItem(page, /Ironbees 1\/1 · Reverted/).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await panel
      .locator('[data-testid="status"]', { hasText: 'Ironbees 1/1 · Reverted' })
      .waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.match(await panel.getByTestId('timeline').innerText(), /Reverted/);
    assert.match(await panel.getByTestId('outcome-headline').innerText(), /^\s*Reverted/);
    assert.equal(await statusBarItem(page, /Succeeded/).count(), 0, 'no surface still says Succeeded');
    await readmeShot(page, 'reverted-everywhere');
  });
});
