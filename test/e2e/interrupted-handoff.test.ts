// A run interrupted by a window reload, as a person meets it in code-server: the run waits at the
// plan gate, the window reloads (the extension host starts again and follows nothing), and the
// panel says so and stays saying so — an "Interrupted" banner with Resume, "Paused" in the status
// bar. The panel's HANDOFF.md button opens the run's hand-off as a rendered Markdown preview, its
// commands (Resume, Revert) beside it as buttons. Resume picks the run up at the plan and it goes
// on to success (its diff accepted with the review's key binding); the banner is gone.
// Screenshots in test-results/ (08-interrupted, 09-handoff-preview).

import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { hunkLens, runCommand, shot, statusBarItem, waitForWorkbench } from '../support/e2e';
import { DOTNET_STEP_MS, UI_STEP_MS, useDemoWorkbench, startAgentRun, waitForPlan, webviewShowing } from '../support/e2e/agent-run';

const REQUEST = 'Fix the failing Calculator test';
/** What the panel's root shows once it has connected (with or without a run). */
const PANEL = 'main.panel';

describe('e2e: an interrupted run in code-server', function () {
  this.timeout(900_000);
  const workbench = useDemoWorkbench('failure-interrupted');

  it('shows a reloaded run as Interrupted and Paused, opens its HANDOFF.md, and resumes it to success', async function () {
    const page = workbench().page;
    // 1. A run reaches the plan gate.
    await startAgentRun(page, REQUEST);
    let panel = await webviewShowing(page, PANEL);
    await waitForPlan(page, panel);
    await panel.getByTestId('approve-plan').waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const runId = onlyRunId(workbench().server.workspace);

    // 2. The window reloads: a new page, a new extension host that follows no run.
    const reloaded = page.waitForEvent('load', { timeout: UI_STEP_MS });
    await runCommand(page, 'Developer: Reload Window', UI_STEP_MS);
    await reloaded;
    await waitForWorkbench(page);

    // 3. The status bar says the run is paused where it stopped, and the panel (restored with the
    // window) carries the banner that stays until the run is resumed.
    await statusBarItem(page, 'Paused').waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.equal((await statusBarItem(page, 'Paused').innerText()).trim(), 'Ironbees · Paused (Plan ready for review)');
    panel = await webviewShowing(page, '[data-testid="banner-interrupted"]');
    const banner = panel.getByTestId('banner-interrupted');
    assert.equal(
      (await banner.locator('.banner-text').innerText()).trim(),
      'Interrupted — the run stopped at Approve plan when the window closed.',
    );
    assert.equal((await banner.getByTestId('resume').innerText()).trim(), 'Resume');
    assert.equal((await panel.getByTestId('status').innerText()).trim(), 'Ironbees · Paused (Plan ready for review)');
    await shot(page, '08-interrupted');

    // 4. HANDOFF.md in the panel opens the run's hand-off as a rendered preview; its commands are
    // the buttons beside it.
    await panel.getByTestId('open-handoff').click();
    await page.locator('.tabs-container .tab', { hasText: 'Preview HANDOFF.md' }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    // VS Code's Markdown preview renders the document into `.markdown-body`.
    const preview = await webviewShowing(page, '.markdown-body h1');
    assert.equal((await preview.locator('.markdown-body h1').first().innerText()).trim(), `Ironbees hand-off — run ${runId}`);
    const body = await preview.locator('.markdown-body').innerText();
    assert.match(body, /The run was interrupted at Approve plan: the window closed before it finished\./);
    assert.match(body, new RegExp(`ironbees resume ${runId}`));
    assert.match(body, new RegExp(`ironbees revert ${runId}`));
    panel = await webviewShowing(page, '[data-testid="handoff-bar"]');
    const bar = panel.getByTestId('handoff-bar');
    assert.equal(await bar.getByTestId('handoff-resume').getAttribute('title'), `ironbees resume ${runId}`);
    assert.equal(
      await bar.getByTestId('handoff-revert').getAttribute('title'),
      `ironbees revert ${runId}: every file the run changed gets its original content back`,
    );
    await shot(page, '09-handoff-preview');

    // 5. Resume: the run waits at its plan again, followed — the banner and "Paused" are gone.
    await panel.getByTestId('resume').click();
    await statusBarItem(page, 'Plan ready for review').waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await waitUntilGone(panel, 'banner-interrupted');
    assert.equal(await statusBarItem(page, 'Paused').count(), 0);
    await panel.getByTestId('approve-plan').waitFor({ state: 'visible', timeout: UI_STEP_MS });

    // 6. The resumed run goes on as any: approve, then accept the file with the review's key binding
    // (Ctrl+Alt+Y, bound only while the diff under review has the focus), success.
    await panel.getByTestId('approve-plan').click();
    const acceptHunk = hunkLens(page, 'Accept').first();
    await acceptHunk.waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await page.locator('.monaco-diff-editor .editor.modified .view-lines').first().click();
    await page.keyboard.press('Control+Alt+KeyY');
    await statusBarItem(page, /Ironbees.*Succeeded/).waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    assert.equal(await panel.getByTestId('banner-interrupted').count(), 0);
    assert.equal(await panel.locator('[data-testid="run"]').getAttribute('data-node'), 'SUCCESS');
  });
});

/** The id of the one run in the served workspace copy (`.ironbees/runs/<id>/`; runs/ also holds `.open-applies/`). */
function onlyRunId(workspace: string): string {
  const runs = readdirSync(join(workspace, '.ironbees', 'runs'), { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && !entry.name.startsWith('.'),
  );
  assert.equal(runs.length, 1, `one run in the workspace: ${runs.map((r) => r.name).join(', ')}`);
  return runs[0].name;
}

async function waitUntilGone(panel: FrameLocator, testId: string): Promise<void> {
  await panel.getByTestId(testId).waitFor({ state: 'detached', timeout: UI_STEP_MS });
}
