// Issue 27 item 3 in the browser: code-server with the packaged .vsix, the scripted demo model and
// one iteration. After the run succeeds the panel offers "Restore here" on the Plan step and on the
// attempt, and "Back to last green". "Restore here" on the Plan step shows what would change (now ↔
// the checkpoint, in VS Code's multi-file diff) and asks in a modal; confirmed, the run waits at
// WAIT_HUMAN for the person's guidance (the Continue section). Screenshots in test-results/
// (restore-here, restore-diff-confirm, restored-waits-for-guidance).

import { strict as assert } from 'node:assert';
import { shot } from '../support/e2e';
import { UI_STEP_MS, runDemoToSuccess, useDemoWorkbench } from '../support/e2e/agent-run';

const REQUEST = 'Fix the failing Calculator test';

describe('e2e: Restore here in the panel (issue 27)', function () {
  this.timeout(900_000);
  const workbench = useDemoWorkbench('restore-checkpoint-failure', { 'ironbees.maxIterations': 1 });

  it('offers Restore here and Back to last green; shows the diff, confirms, and waits for guidance', async function () {
    const page = workbench().page;
    const panel = await runDemoToSuccess(page, REQUEST);

    // 1. Restore here on the Plan step and on attempt 1; Back to last green (iteration 1 passed).
    const planRestore = panel.locator('[data-testid="timeline"] li[data-node="PLAN"] .restore-button');
    await planRestore.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.equal((await planRestore.innerText()).trim(), 'Restore here');
    assert.equal(await panel.getByTestId('attempts').locator('.restore-button').count(), 1);
    const green = panel.getByTestId('back-to-last-green').locator('.restore-button');
    assert.equal((await green.innerText()).trim(), 'Back to last green');
    assert.match((await green.getAttribute('title')) ?? '', /tests \d+\/\d+ passed/);
    await shot(page, 'restore-here');

    // 2. Restore here on the Plan: the multi-file diff (now ↔ checkpoint) opens and a modal asks.
    await planRestore.click();
    await page
      .locator('.tab', { hasText: /now ↔ checkpoint/ })
      .first()
      .waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.match(await dialog.innerText(), /Restore run .* to /);
    await shot(page, 'restore-diff-confirm');
    await dialog.locator('.monaco-button', { hasText: /^Restore$/ }).click();

    // 3. The run waits for the person's guidance.
    await panel.locator('[data-testid="run"][data-node="WAIT_HUMAN"]').waitFor({ state: 'attached', timeout: UI_STEP_MS });
    const guidance = panel.getByTestId('guidance');
    await guidance.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await panel.getByTestId('continue').waitFor({ state: 'visible', timeout: UI_STEP_MS });
    // Waiting for guidance on purpose: not shown as a run a window reload interrupted.
    assert.equal(await panel.getByTestId('banner-interrupted').count(), 0);
    await guidance.scrollIntoViewIfNeeded();
    await shot(page, 'restored-waits-for-guidance');
  });
});
