// Issue 25 in the browser, with a scripted model: code-server with the packaged .vsix pointed at a
// fake Anthropic Messages API on 127.0.0.1, two iterations. The coder's first attempt is accepted,
// applied and fails the real `dotnet test` of the Calculator fixture, so the run goes on to iteration
// 2. There, on the last iteration, the person rejects the proposal with a reason: the coder is sent
// those very words and proposes again (still 2/2). "Compare with the Original" on that proposal sets
// the file as it was BEFORE THE RUN on the left (the original bug, not attempt 1's applied line)
// beside iteration 2's proposal on the right. The screenshot goes to media/screenshots/ for the README.

import { strict as assert } from 'node:assert';
import type { FrameLocator, Page } from 'playwright-core';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
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

const REQUEST = 'Fix the failing Divide test';
const SOURCE = 'src/Calculator/Calculator.cs';
/** The fixture's bug, as it is before the run. */
const ORIGINAL_LINE = 'return a * b;';
/** Attempt 1: applied, and Divide_ReturnsQuotient still fails (6 · 3 is not 2). */
const ATTEMPT_1_LINE = 'return b * a;';
/** Iteration 2's first proposal, rejected with REASON. */
const REJECTED_LINE = 'return (int)((double)a / b);';
/** Iteration 2's proposal after the rejection: the one compared with the original. */
const ITERATION_2_LINE = 'return a / b;';
const REASON = 'Use integer division, no casts';
const COMPARE_TITLE = 'Calculator.cs: before the run ↔ proposed';

function edit(from: string, to: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: from, new_str: to });
}

const PLAN = toolUse('submit_plan', {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [
      { number: 1, description: 'Divide instead of multiplying', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The failing test' },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
});

/** The text of one side of the diff editor, as rendered (Monaco draws spaces as no-break spaces). */
async function sideText(diff: ReturnType<Page['locator']>, side: 'original' | 'modified'): Promise<string> {
  return (await diff.locator(`.editor.${side} .view-lines`).innerText()).replace(/\u00a0/g, ' ');
}

async function runNode(panel: FrameLocator): Promise<string | null> {
  return panel.getByTestId('run').getAttribute('data-node');
}

describe('e2e: iteration 2 compared with the original (issue 25, scripted model)', function () {
  this.timeout(900_000);
  let fake: FakeAnthropic | undefined;
  before(async function () {
    fake = await startFakeAnthropic();
    fake.enqueue(
      PLAN,
      edit(ORIGINAL_LINE, ATTEMPT_1_LINE),
      toolUse('submit_changes', { summary: 'Swapped the operands.' }),
      edit(ATTEMPT_1_LINE, REJECTED_LINE),
      toolUse('submit_changes', { summary: 'Divide through double.' }),
      edit(ATTEMPT_1_LINE, ITERATION_2_LINE),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
  });
  after(async function () {
    await fake?.close();
  });
  const workbench = useDemoWorkbench(
    'iteration-two-original-failure',
    () => ({
      'ironbees.demoModel': false,
      'ironbees.anthropicBaseUrl': fake?.url,
      'ironbees.maxIterations': 2,
      'ironbees.review': 'off',
    }),
    () => ({ ANTHROPIC_API_KEY: 'sk-ant-test-key-for-the-fake' }),
  );

  it("attempt 1 fails validation; on the last iteration a reason reaches the coder; iteration 2's proposal against the file before the run", async function () {
    const page = workbench().page;
    await waitForMaxIterations(page, 2);
    await startAgentRun(page, REQUEST);
    await waitForPlan(page, await webviewShowing(page, '[data-testid="run"]', DOTNET_STEP_MS));
    const panel = await webviewShowing(page, '[data-testid="approve-plan"]');
    await panel.getByTestId('approve-plan').click();

    // 1. Attempt 1 accepted: applied, validated for real, still failing; the run goes on to iteration 2.
    const acceptHunk = hunkLens(page, 'Accept').first();
    await acceptHunk.waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await statusBarItem(page, /Ironbees 1\/2 · Changes ready for review/).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await acceptHunk.click();
    await statusBarItem(page, /Ironbees 2\/2 · Changes ready for review/).waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await panel.locator('[data-testid="run"][data-node="WAIT_DIFF_APPROVAL"]').waitFor({ state: 'attached', timeout: UI_STEP_MS });
    const applied = panel.getByTestId('attempts').locator('li[data-outcome="applied"]');
    assert.equal(await applied.count(), 1, 'attempt 1 was applied');

    // 2. The last iteration's proposal rejected with a reason: the coder is sent the person's words and
    // proposes again in the same iteration (no validation ran, no iteration used).
    const sentBefore = fake!.requests.length;
    await panel.getByTestId('reject-all').click();
    await panel.getByTestId('diff-feedback').fill(REASON);
    await panel.getByTestId('send-diff-feedback').click();
    await panel.getByTestId('attempts').locator('li[data-outcome="rejected"]').first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await hunkLens(page, 'Accept').first().waitFor({ state: 'visible', timeout: DOTNET_STEP_MS });
    await statusBarItem(page, /Ironbees 2\/2 · Changes ready for review/).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.equal(await runNode(panel), 'WAIT_DIFF_APPROVAL');
    const toCoder = fake!.requests.slice(sentBefore).map((request) => JSON.stringify(request.body.messages));
    assert.equal(toCoder.length, 2, 'the re-proposal is one edit and one submit');
    assert.ok(
      toCoder[0]?.includes(`The person rejected all of your proposed changes (nothing was applied). Their feedback: ${REASON}`),
      `the coder was sent the person's reason: ${toCoder[0]?.slice(0, 2000)}`,
    );
    assert.equal(fake!.pending, 0, 'every scripted answer was used');

    // 3. Compare with the Original: the file before the run on the left, iteration 2's proposal on the right.
    await runCommand(page, 'Ironbees: Compare with the Original (before the run)', UI_STEP_MS);
    const group = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: COMPARE_TITLE }) });
    const diff = group.locator('.monaco-diff-editor').first();
    // Playwright's text match takes Monaco's no-break spaces for spaces.
    await diff.locator('.editor.original .view-lines', { hasText: ORIGINAL_LINE }).waitFor({ state: 'visible', timeout: UI_STEP_MS });
    const left = await sideText(diff, 'original');
    const right = await sideText(diff, 'modified');
    assert.ok(left.includes(ORIGINAL_LINE), `the left side has the original bug: ${left}`);
    assert.ok(!left.includes(ATTEMPT_1_LINE), `the left side is not attempt 1's applied code: ${left}`);
    assert.ok(right.includes(ITERATION_2_LINE), `the right side is iteration 2's proposal: ${right}`);
    assert.ok(
      !right.includes(ATTEMPT_1_LINE) && !right.includes(REJECTED_LINE),
      `nothing but iteration 2's proposal on the right: ${right}`,
    );
    await readmeShot(page, 'iteration-two-against-original');
  });
});
