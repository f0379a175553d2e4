// The code review end to end (contracts.md, Reviewer): the real CLI on a copy of the calculator
// fixture (real dotnet, the real Anthropic SDK against a scripted local fake). A change that passes
// the tests but leaves Console.WriteLine behind fails the review, goes back to the coder with the
// issue, comes back clean, passes (score ≥ 8) and ends in SUCCESS with the review in the final state.
// Advisory shows a failing review and succeeds; off makes no reviewer call.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli, traceEvents } from '../support/cli-harness';
import type { CliResult } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};
const DEBUG_LINE = 'System.Console.WriteLine("dividing");';
const ISSUE = {
  severity: 'major',
  file: SOURCE,
  line: 18,
  description: 'Console.WriteLine debug output left in Divide',
  suggestedFix: 'Remove the Console.WriteLine call',
};
const FAILING_REVIEW = { score: 4, criticalIssues: [ISSUE], suggestions: [] };

/** The planner's plan, then a coder that fixes Divide but leaves a debug line behind. */
function scriptDebugChange(fake: FakeAnthropic): void {
  fake.enqueue(
    toolUse('submit_plan', PLAN),
    toolUse('str_replace_based_edit_tool', {
      command: 'str_replace',
      path: SOURCE,
      old_str: 'return a * b;',
      new_str: `${DEBUG_LINE}\n        return a / b;`,
    }),
    toolUse('submit_changes', { summary: 'Divide now divides.' }),
  );
}

function userText(request: FakeRequest): string {
  const first = request.body.messages.find((message) => message.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

function systemText(request: FakeRequest): string {
  const system = request.body.system;
  return typeof system === 'string' ? system : (system ?? []).map((block) => block.text).join('\n');
}

async function run(fake: FakeAnthropic, workspace: string, extra: string[]): Promise<CliResult> {
  const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  return runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json', ...extra], env);
}

describe('the code review of a run (real CLI, real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  const workspaces: string[] = [];

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
  });
  after(async () => {
    await fake.close();
    for (const dir of workspaces) removeDir(dir);
  });

  it('required (the default): a debug line fails the review, goes back to the coder with the issue, comes back clean and passes', async () => {
    const workspace = copyFixture('calculator');
    workspaces.push(workspace);
    scriptDebugChange(fake);
    fake.enqueueReview(
      toolUse('submit_review', FAILING_REVIEW),
      toolUse('submit_review', { score: 9, criticalIssues: [], suggestions: [] }),
    );
    fake.enqueue(
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: SOURCE,
        old_str: `${DEBUG_LINE}\n        return a / b;`,
        new_str: 'return a / b;',
      }),
      toolUse('submit_changes', { summary: 'Removed the debug output.' }),
    );
    const result = await run(fake, workspace, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');

    // The reviewer read the first change: the debug line in the diff, the tests before → after, the categories to flag.
    assert.equal(fake.reviewRequests.length, 2);
    const firstReview = userText(fake.reviewRequests[0]);
    assert.ok(firstReview.includes(`+        ${DEBUG_LINE}`), firstReview);
    assert.match(
      firstReview,
      /- Before the change: 6 passed, 1 failed, 0 skipped \(7 in all\)\n- After the change: 7 passed, 0 failed, 0 skipped \(7 in all\)/,
    );
    assert.match(systemText(fake.reviewRequests[0]), /Debug output left behind/);
    assert.ok(!userText(fake.reviewRequests[1]).includes(DEBUG_LINE), 'the second review sees the clean change');

    // The coder's next attempt started from the review's issue.
    const coderRetry = fake.requests.map(userText).find((text) => text.includes('did not pass code review'));
    assert.ok(coderRetry, 'the coder was told the review failed');
    assert.ok(
      coderRetry.includes(`[major] ${SOURCE}:18: Console.WriteLine debug output left in Divide Fix: Remove the Console.WriteLine call`),
    );

    const final = result.states.at(-1) as Record<string, unknown> & { review?: unknown };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 2, 'the failed review used one iteration');
    assert.deepEqual(final.review, { score: 9, criticalIssues: [], suggestions: [], pass: true });
    assert.deepEqual(
      result.states.map((s) => s.currentNode).filter((node) => ['CODE', 'REVIEW', 'SUCCESS'].includes(node)),
      ['CODE', 'REVIEW', 'CODE', 'REVIEW', 'SUCCESS'],
    );
    const failedReview = result.states.find((s) => s.currentNode === 'CODE' && s.iterationCount === 2) as { review?: unknown };
    assert.deepEqual(failedReview.review, { ...FAILING_REVIEW, pass: false });
    assert.ok(!readFileSync(path.join(workspace, SOURCE), 'utf8').includes('Console'));
    assert.match(result.stderr, /Code review: score 4\/10, failed\n {2}\[major\] src\/Calculator\/Calculator\.cs:18 Console\.WriteLine/);

    // The reviewer's turns are traced and counted like any agent's.
    const runId = final.stateId as string;
    const turns = traceEvents(workspace, runId).filter((e) => e.kind === 'turn');
    assert.deepEqual(
      turns.filter((t) => t.step === 'REVIEW').map((t) => t.role),
      ['reviewer', 'reviewer'],
    );
    assert.match(readRunFile(workspace, runId, 'HANDOFF.md'), /## Code review\n\nScore 9\/10: passed\./);
  });

  it('advisory: a failing review is shown and the run succeeds without another iteration', async () => {
    const workspace = copyFixture('calculator');
    workspaces.push(workspace);
    const reviewsBefore = fake.reviewRequests.length;
    scriptDebugChange(fake);
    fake.enqueueReview(toolUse('submit_review', FAILING_REVIEW));
    const result = await run(fake, workspace, ['--review', 'advisory']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0);
    assert.equal(fake.reviewRequests.length, reviewsBefore + 1);
    const final = result.states.at(-1) as Record<string, unknown>;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    assert.deepEqual(final.review, { ...FAILING_REVIEW, pass: false });
  });

  it('off: no reviewer call, no review in the state', async () => {
    const workspace = copyFixture('calculator');
    workspaces.push(workspace);
    const reviewsBefore = fake.reviewRequests.length;
    scriptDebugChange(fake);
    const result = await run(fake, workspace, ['--review', 'off']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.reviewRequests.length, reviewsBefore);
    const final = result.states.at(-1) as Record<string, unknown>;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.ok(!('review' in final));
    assert.ok(!result.states.some((s) => s.currentNode === 'REVIEW'));
  });
});
