// The product as a person meets it: code-server serving a copy of the Calculator fixture with the
// packaged .vsix installed and the scripted demo model, driven in chromium. The person has the file
// the run will edit open → command palette → Run Agent → request → the planner's live activity in
// the side panel → the plan → Approve → the diff editor beside the person's file, with the review's
// ✓/✕ actions in its title → Accept (the hunk's CodeLens in the diff editor) → validation results →
// a green status bar → no review actions any more → the fixed test, the applied attempt, and the
// planner's turns from the timeline. Every step leaves a screenshot in test-results/.

import { strict as assert } from 'node:assert';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { agentWebview, hunkLens, shot, statusBarItem } from '../support/e2e';
import { DOTNET_STEP_MS, UI_STEP_MS, useDemoWorkbench, waitForPlan } from '../support/e2e/agent-run';

const REQUEST = 'Fix the failing Calculator test';
/** The file the demo run edits, relative to the workspace. */
const EDITED_FILE = 'src/Calculator/Calculator.cs';
/** The review's editor-title actions, by how their labels start (VS Code appends the key binding). */
const REVIEW_ACTIONS = ['Accept File', 'Reject File', 'Next Change (Hunk)', 'Accept All Changes', 'Reject All Changes…'];

describe('e2e: Ironbees in code-server', function () {
  this.timeout(900_000);
  const workbench = useDemoWorkbench('failure');

  it('runs the agent from the command palette to a green status bar', async function () {
    const page = workbench().page;
    // 0. The person has the file the run will edit open, so the diff opens beside their editor.
    await openFileByQuickOpen(page, EDITED_FILE);

    // 1. The command palette finds the command.
    const quickInput = page.locator('.quick-input-widget input');
    await openPaletteAt(page, 'Ironbees: Run Agent');
    await shot(page, '01-command-palette');
    await page.keyboard.press('Enter');

    // 2. It asks for the request in an input box.
    await page.locator('.quick-input-widget', { hasText: /request|agent|do/i }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await quickInput.fill(REQUEST);
    await shot(page, '02-request');
    await page.keyboard.press('Enter');

    // 3. While the planner works (after the baseline build and test), its activity shows under
    // the step — the files it lists and reads — before the plan appears.
    const panel = agentWebview(page);
    await waitForActivityBeforePlan(page, panel);
    await shot(page, '02b-activity');

    // 3b. The plan appears in the side panel; the activity that led to it stays above it.
    await waitForPlan(page, panel);
    const lines = await panel.getByTestId('activity-tool').allInnerTexts();
    assert.ok(
      lines.some((line) => /^read src\/Calculator\/Calculator\.cs lines 1–\d+ of \d+$/.test(line.trim())),
      `the file read is shown: ${lines.join(' | ')}`,
    );
    assert.equal(lines.at(-1)?.trim(), 'submitted the plan');
    await panel.getByTestId('approve-plan').waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.ok((await panel.getByTestId('plan-step').count()) >= 1, 'the plan shows its numbered steps');
    await shot(page, '03-plan');

    // 4. Approve → the coder proposes changes → the diff editor opens on the proposed file.
    await panel.getByTestId('approve-plan').click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await panel.getByTestId('accept-file').first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.ok((await panel.getByTestId('file-row').count()) >= 1, 'the panel lists the proposed files');
    // The hunk's Accept | Reject CodeLens sits in the diff editor, above the changed line.
    const acceptHunk = hunkLens(page, 'Accept').first();
    await acceptHunk.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await shot(page, '04-diff-review');

    // 4b. The diff opened beside the person's file (which keeps its own group), and the review's
    // actions show in the diff's title while the review is pending.
    assert.equal(await page.locator('.editor-group-container').count(), 2, "two editor groups: the person's file and the diff");
    const personGroup = page.locator('.editor-group-container', { hasNot: page.locator('.monaco-diff-editor') });
    await personGroup.locator('.tab', { hasText: 'Calculator.cs' }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const diffGroup = page.locator('.editor-group-container', { has: page.locator('.monaco-diff-editor') });
    assert.deepEqual(await reviewActionsShown(diffGroup, REVIEW_ACTIONS.length), REVIEW_ACTIONS);
    assert.equal(await paletteOffers(page, 'Ironbees: Accept All Changes'), true, 'the palette offers Accept All while reviewing');
    await shot(page, '05b-review-beside');

    // 5. Accept the hunk in the editor (the file's only one, so the review is complete and goes to
    // the agent) → the validator builds and tests for real.
    await acceptHunk.click();
    await panel
      .locator(
        '[data-testid="run"][data-node="VALIDATE"], [data-testid="run"][data-node="SUCCESS"], [data-testid="run"][data-node="DECIDE"]',
      )
      .first()
      .waitFor({ state: 'attached', timeout: UI_STEP_MS });
    await shot(page, '05-validating');

    // 6. Validation results in the panel, and the status bar says the run succeeded.
    await statusBarItem(page, /Ironbees.*Succeeded/).waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    const counts = panel.getByTestId('test-counts');
    await counts.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const [total, passed, failed] = await counts.locator('td').allInnerTexts();
    // Failed reads before → after: the demo fixture's one failing test is fixed.
    assert.equal(failed, '1 → 0', `no test fails at the end (total ${total}, passed ${passed})`);
    assert.equal(total, passed);
    assert.match(await panel.getByTestId('build-status').innerText(), /Build succeeded/);
    // The fixture's one failing test is listed by name as fixed.
    const fixed = panel.getByTestId('test-fixed').locator('li[data-change="fixed"]');
    const fixedRows = await fixed.allInnerTexts();
    assert.equal(fixedRows.length, 1, `one test is fixed: ${fixedRows.join(' | ')}`);
    assert.match(fixedRows[0].trim(), /^Calculator\.Tests\.CalcTests\.Divide_ReturnsQuotient\s+fixed$/);
    // The Steering section records the coder's one attempt as applied.
    const attempt = panel.getByTestId('attempts').locator('li').first();
    assert.equal(await attempt.getAttribute('data-outcome'), 'applied');
    assert.match(await attempt.locator('div').first().innerText(), /^Attempt 1\s+applied\b/);
    await fixed.first().scrollIntoViewIfNeeded();
    await shot(page, '06-success');

    // 6b. The review is over: its diff tabs are closed, the palette no longer offers its commands
    // (the ironbees.reviewing context is false), and the run's diff opened again from the panel
    // shows no review actions.
    await page.locator('.monaco-diff-editor').waitFor({ state: 'detached', timeout: UI_STEP_MS });
    assert.equal(await paletteOffers(page, 'Ironbees: Accept All Changes'), false, 'the palette offers Accept All after the run');
    await panel.getByTestId('open-diff').first().click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    // The diff's group is the active one, so only the `when` clauses keep the actions out.
    await page
      .locator('.editor-group-container.active', { has: page.locator('.monaco-diff-editor') })
      .waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.deepEqual(await reviewActionsShown(diffGroup, 0), []);
    // Nor a hunk's Accept | Reject (VS Code may first draw the lenses it cached for this document).
    await page
      .locator('.monaco-diff-editor .codelens-decoration', { hasText: 'Accept' })
      .first()
      .waitFor({ state: 'detached', timeout: UI_STEP_MS });
    await shot(page, '06b-review-over');

    // 7. A click on Plan in the timeline opens the planner's turns: the files it listed and read,
    // then the plan it submitted.
    // On the step's name: the step also holds a "Restore here" button.
    await panel.locator('[data-testid="timeline"] [data-node="PLAN"]').getByText('Plan', { exact: true }).click();
    const turns = panel.getByTestId('step-turns');
    await turns.getByTestId('turn-call').first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const calls = await turns.locator('[data-testid="turn-call"] code').allInnerTexts();
    // The demo planner: one listing, the fixture's two source files read, the plan submitted.
    assert.deepEqual(calls, ['list_files', 'read_file', 'read_file', 'submit_plan']);
    await turns.scrollIntoViewIfNeeded();
    await shot(page, '07-step-turns');
  });
});

/**
 * Opens the command palette with `title` typed and its row showing. The workbench draws before the
 * remote extension host has registered the extension's commands, and an open palette does not pick
 * up commands registered after it opened, so it is closed and opened again until the row appears.
 */
async function openPaletteAt(page: Page, title: string): Promise<void> {
  const quickInput = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + UI_STEP_MS;
  while (Date.now() < deadline) {
    await page.keyboard.press('F1');
    await quickInput.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await quickInput.fill(`>${title}`);
    if (
      await row.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1_000);
  }
  throw new Error(`"${title}" did not appear in the command palette within ${UI_STEP_MS / 1000} s`);
}

/** Opens a workspace file by typing its path in Quick Open, and waits for its tab to be active. */
async function openFileByQuickOpen(page: Page, relPath: string): Promise<void> {
  const name = relPath.split('/').at(-1) ?? relPath;
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(relPath);
  await row.waitFor({ state: 'visible', timeout: UI_STEP_MS });
  await page.keyboard.press('Enter');
  await page.locator('.editor-group-container .tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
}

/**
 * The review actions shown in `group`'s title, in REVIEW_ACTIONS order. Waits until the title's
 * toolbar has drawn VS Code's own actions (and up to `expected` of ours) before it reads.
 */
async function reviewActionsShown(group: Locator, expected: number): Promise<string[]> {
  const labels = group.locator('.editor-actions .action-label[aria-label]');
  const read = async (): Promise<string[]> => {
    const shown = await labels.evaluateAll((nodes) =>
      nodes.filter((n) => (n as unknown as { offsetParent: unknown }).offsetParent !== null).map((n) => n.getAttribute('aria-label') ?? ''),
    );
    return REVIEW_ACTIONS.filter((action) => shown.some((label) => label.startsWith(action)));
  };
  await labels.first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await read()).length < expected) await group.page().waitForTimeout(250);
  return read();
}

/** Whether the command palette lists `title` (its `when` clause holds); the palette is closed again. */
async function paletteOffers(page: Page, title: string): Promise<boolean> {
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await rows.first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
  const texts = await rows.allInnerTexts();
  await page.keyboard.press('Escape');
  return texts.some((text) => text.includes(title));
}

/** Packages the extension when the test runs on its own (run-tests.mjs packages before this stage). */

/**
 * Waits for the first tool line of the planner's activity and asserts that the plan was not shown
 * yet when it appeared. The moment is caught inside the panel (FIRST_ACTIVITY_PROBE): the demo
 * planner's turns take about a second in all, which polling over the debugging protocol on a busy
 * machine can miss.
 */
async function waitForActivityBeforePlan(page: Page, panel: FrameLocator): Promise<void> {
  const pick = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
  const deadline = Date.now() + DOTNET_STEP_MS;
  while (Date.now() < deadline) {
    const first = await probeFirstActivity(panel);
    if (first) {
      assert.equal(first.planShown, false, `the activity shows before the plan (first line: ${first.text})`);
      assert.match(first.text, /^listed \*\*\/\*\.cs — \d+ files$/);
      return;
    }
    if (await pick.isVisible().catch(() => false)) await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  throw new Error(`no activity appeared in the side panel within ${DOTNET_STEP_MS / 1000} s`);
}

interface FirstActivity {
  /** The first activity tool line's text. */
  readonly text: string;
  /** Whether the plan was on screen when that line appeared. */
  readonly planShown: boolean;
}

/**
 * Runs in the Agent panel's page: the first time, starts a MutationObserver that records what the
 * panel showed when its first activity tool line appeared (it sees every render); returns that
 * record, or null until then. A string, because the test's TypeScript has no DOM types.
 */
const FIRST_ACTIVITY_PROBE = `(() => {
  if (!window.__ironbeesActivityWatch) {
    window.__ironbeesActivityWatch = true;
    const shown = (element) => element !== null && element.offsetParent !== null;
    const look = () => {
      if (window.__ironbeesFirstActivity) return;
      const tool = document.querySelector('[data-testid="activity-tool"]');
      if (!shown(tool)) return;
      window.__ironbeesFirstActivity = { text: tool.innerText.trim(), planShown: shown(document.querySelector('[data-testid="plan"]')) };
    };
    look();
    new MutationObserver(look).observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true });
  }
  return window.__ironbeesFirstActivity ?? null;
})()`;

/** The panel's record of its first activity line (null before it, or while the panel is loading). */
async function probeFirstActivity(panel: FrameLocator): Promise<FirstActivity | null> {
  const frame = await panel
    .owner()
    .elementHandle({ timeout: 1_000 })
    .then(
      (handle) => handle.contentFrame(),
      () => null,
    );
  if (!frame) return null;
  return frame.evaluate(FIRST_ACTIVITY_PROBE).then(
    (record) => record as FirstActivity | null,
    () => null,
  );
}
