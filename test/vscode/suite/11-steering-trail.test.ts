// The rest of the truthful panel (issue 14 item 4), in the real extension (real SDK against the
// scripted fake Messages API), asserted on what the panel is sent and read the way the panel reads
// it (the webview's own pure view functions): the steering trail (each plan version with the
// feedback that made it, "unchanged" when the planner returned the rejected plan, each attempt's
// coder summary, the person's guidance kept after Continue), before → after for every test (fixed,
// still failing, newly failing) and build error (new, pre-existing), the real reason of a failed
// run with a timeline that marks FAILED and ticks only the steps reached (a gate the approval
// settings skipped reads "skipped"), Reverted and Cancelled in the timeline, a file the person
// changed under review proposed again on their version, the review actions gone once the run ends,
// and the provider and model (never "agent default").

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { steeringTrail } from '../../../webview-ui/src/state/steering';
import { conflictNote, endingNote, runTimeline } from '../../../webview-ui/src/state/timeline';
import { reviewUri } from '../../../src/extension/review/review-uris';
import { testChange, validationView } from '../../../webview-ui/src/state/validation';
import { modelLine } from '../../../webview-ui/src/state/run-info';
import { httpError, startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import {
  SOURCE,
  TARGET,
  eventually,
  ironbees,
  readWorkspaceBytes,
  reviewDiffTabs,
  setSetting,
  setUserSetting,
  stopUsingFakeModel,
  useFakeModel,
  workspaceRoot,
} from './helpers';
import { capturePanelMessages } from './panel-messages';
import type { PanelCapture } from './panel-messages';

const MODEL = 'claude-steering-fake';
const ADD_TEST = 'Calculator.Tests.CalcTests.Add_ReturnsSum';
const DIVIDE_TEST = 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient';

const SPEC = 'Calc.Divide returns a / b.';
function plan(summary: string, description: string): unknown {
  return {
    spec: SPEC,
    plan: {
      summary,
      steps: [{ number: 1, description, actionType: 'MODIFY', filePath: SOURCE, rationale: 'The failing test' }],
      affectedFiles: [SOURCE],
      complexity: 'LOW',
    },
  };
}
const PLAN_ADD = plan('Tidy Add.', 'Swap the operands of Add');
const PLAN_DIVIDE = plan('Fix Divide.', 'Divide instead of multiplying');

function edit(file: string, from: string, to: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: file, old_str: from, new_str: to });
}

describe('the steering trail, before → after and the real reason in the panel (real SDK against a fake Messages API)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let panel: PanelCapture;
  const original = readWorkspaceBytes(SOURCE);
  const failingFirst = process.env.IRONBEES_FAILING_FIRST;

  before(async () => {
    fake = await startFakeAnthropic();
    panel = await capturePanelMessages();
    await useFakeModel(fake.url);
    await setSetting('model', MODEL);
    await setUserSetting('approval.diffs', 'never');
    const { controllerDeps } = await ironbees();
    await eventually(
      'the model setting to be read',
      () => controllerDeps.settings().model === MODEL && !controllerDeps.settings().demoModel,
    );
  });

  after(async () => {
    panel?.dispose();
    const { controller } = await ironbees();
    if (controller.state && controller.isLive) await controller.cancel().catch(() => undefined);
    if (failingFirst === undefined) delete process.env.IRONBEES_FAILING_FIRST;
    else process.env.IRONBEES_FAILING_FIRST = failingFirst;
    await setSetting('maxIterations', undefined);
    await setSetting('model', undefined);
    for (const key of ['approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('each plan version with its feedback ("unchanged" when it is), each attempt with its coder summary, the guidance kept after Continue, every test before → after, the model', async () => {
    // Every test is run after each edit (not the failing ones first), so a test the edit broke is
    // seen beside the one that still fails.
    process.env.IRONBEES_FAILING_FIRST = '0';
    await setUserSetting('approval.plan', 'always');
    await setSetting('maxIterations', 1);
    const { controller, actions } = await ironbees();
    fake.enqueue(toolUse('submit_plan', PLAN_ADD));
    const started = await controller.start('Fix the failing Divide test', TARGET);
    await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED'], 240_000);
    let reverted = false;
    try {
      // Rejected with feedback: a different plan (version 2)…
      fake.enqueue(toolUse('submit_plan', PLAN_DIVIDE));
      await actions.rejectPlan('Divide is the bug, not Add');
      const second = await planVersion(controller, 2);
      assert.equal(second.metadata.planUnchangedAfterFeedback, undefined);
      // …rejected again: the planner returns that very plan (version 3, unchanged).
      fake.enqueue(toolUse('submit_plan', PLAN_DIVIDE));
      await actions.rejectPlan('Say why Divide multiplies');
      const third = await planVersion(controller, 3);
      assert.equal(third.metadata.planUnchangedAfterFeedback, true);
      // Each version after the first says which steps it added and dropped.
      assert.deepEqual(steeringTrail(panel.lastRun() as CodingState)?.plans, [
        { version: 1, summary: 'Tidy Add.', stepCount: 1, feedback: null, unchanged: false, by: 'planner', added: [], removed: [] },
        {
          version: 2,
          summary: 'Fix Divide.',
          stepCount: 1,
          feedback: 'Divide is the bug, not Add',
          unchanged: false,
          by: 'planner',
          added: [`MODIFY ${SOURCE}: Divide instead of multiplying`],
          removed: [`MODIFY ${SOURCE}: Swap the operands of Add`],
        },
        {
          version: 3,
          summary: 'Fix Divide.',
          stepCount: 1,
          feedback: 'Say why Divide multiplies',
          unchanged: true,
          by: 'planner',
          added: [],
          removed: [],
        },
      ]);

      // Attempt 1 breaks Add and leaves Divide failing: one test newly failing, one still failing.
      fake.enqueue(
        edit(SOURCE, 'Add(int a, int b) => a + b;', 'Add(int a, int b) => a - b;'),
        toolUse('submit_changes', { summary: 'Made Add subtract.' }),
      );
      await vscode.commands.executeCommand('ironbees.approvePlan');
      const handedOver = await controller.waitFor(['WAIT_HUMAN', 'SUCCESS', 'FAILED'], 240_000);
      assert.equal(handedOver.currentNode, 'WAIT_HUMAN', JSON.stringify(handedOver.metadata.error ?? null));
      const atHandoff = validationView(await panel.runAt(started.stateId, 'WAIT_HUMAN', 1));
      assert.deepEqual(atHandoff?.failures.map((f) => [f.testName, testChange(f)]).sort(), [
        [ADD_TEST, 'newly failing'],
        [DIVIDE_TEST, 'still failing'],
      ]);
      assert.deepEqual([atHandoff?.tests?.failed, atHandoff?.baseline?.failedTests, atHandoff?.fixed], [2, 1, []]);

      // Continue with guidance: attempt 2 puts Add back and fixes Divide.
      fake.enqueue(
        edit(SOURCE, 'Add(int a, int b) => a - b;', 'Add(int a, int b) => a + b;'),
        edit(SOURCE, 'return a * b;', 'return a / b;'),
        toolUse('submit_changes', { summary: 'Put Add back; Divide divides.' }),
      );
      await actions.continueRun('Leave Add as it was', 1);
      const done = await eventually(
        'the second attempt to end',
        () =>
          controller.state?.iterationCount === 2 &&
          ['SUCCESS', 'FAILED', 'WAIT_HUMAN'].includes(controller.state.currentNode) &&
          controller.state,
        240_000,
      );
      assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.metadata.error ?? done.testResult?.failures ?? null));
      const shown = await panel.runAt(started.stateId, 'SUCCESS', 2);
      const trail = steeringTrail(shown);
      assert.deepEqual(trail?.attempts, [
        { iteration: 1, outcome: 'applied', files: [SOURCE], summary: 'Made Add subtract.', feedback: null },
        { iteration: 2, outcome: 'applied', files: [SOURCE], summary: 'Put Add back; Divide divides.', feedback: null },
      ]);
      assert.deepEqual(trail?.guidance, [{ iteration: 2, guidance: 'Leave Add as it was' }], 'the guidance is kept after Continue');
      assert.equal(trail?.plans.length, 3);
      const after = validationView(shown);
      assert.deepEqual([after?.fixed, after?.failures, after?.tests?.failed, after?.baseline?.failedTests], [[DIVIDE_TEST], [], 0, 1]);

      // After two attempts, "Compare with the Original" sets the file before the run — not attempt
      // 1's applied code — beside the file as attempt 2 left it.
      await vscode.commands.executeCommand('ironbees.compareWithOriginal', { filePath: SOURCE });
      const compared = await eventually('the compare-with-original diff', () =>
        vscode.window.tabGroups.all
          .flatMap((group) => group.tabs)
          .map((tab) => tab.input)
          .find(
            (input): input is vscode.TabInputTextDiff =>
              input instanceof vscode.TabInputTextDiff && input.original.scheme === 'ironbees-before',
          ),
      );
      const left = await vscode.workspace.openTextDocument(compared.original);
      assert.equal(left.getText(), original?.toString('utf8'), 'the left side is the file before the run');
      assert.equal(compared.modified.fsPath, path.join(workspaceRoot(), SOURCE));
      assert.match(
        fs.readFileSync(compared.modified.fsPath, 'utf8'),
        /=> a \+ b;[\s\S]*return a \/ b;/,
        "the right side is attempt 2's file",
      );
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      // The run's own provider and model, not "agent default"; the model the fake was asked for.
      assert.equal(modelLine(panel.lastModelInfo(started.stateId)), `Anthropic · ${MODEL}`);
      assert.equal(panel.lastSettings()?.model, `Anthropic · ${MODEL}`);
      assert.deepEqual([...new Set(fake.requests.map((r) => r.body.model))], [MODEL]);

      // Reverted, the timeline's ending says so instead of "Success".
      await vscode.commands.executeCommand('ironbees.revertRun', started.stateId);
      reverted = true;
      const revertedRun = await eventually('the panel to be sent the reverted run', () => {
        const run = panel.lastRun();
        return run?.stateId === started.stateId && typeof run.metadata.revertedAt === 'string' && run;
      });
      assert.deepEqual(runTimeline(revertedRun).at(-1), {
        node: 'SUCCESS',
        label: 'Reverted',
        status: 'reverted',
        note: 'Success, then reverted: every file the run changed has its original content back',
      });
    } finally {
      if (controller.isLive) await controller.cancel().catch(() => undefined);
      if (!reverted) await vscode.commands.executeCommand('ironbees.revertRun', started.stateId);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'restored byte for byte');
  });

  it('a failed run says its real reason; the timeline marks FAILED and the failed baseline, ticks only steps reached (not the skipped plan gate); build errors are new or pre-existing', async () => {
    // A build that already fails before any edit: one error the agent did not make.
    const broken = path.join(workspaceRoot(), 'src/Calculator/Broken.cs');
    const brokenRel = 'src/Calculator/Broken.cs';
    fs.writeFileSync(broken, 'namespace Calculator;\n\npublic static class Broken\n{\n    public static int Value => missingValue;\n}\n');
    await setUserSetting('approval.plan', 'never');
    await setSetting('maxIterations', 2);
    // No model chosen: each agent's own answers, and the status line says so (not "agent default").
    await setSetting('model', undefined);
    await eventually(
      'the panel to be told the next run uses each agent\u2019s model',
      () => panel.lastSettings()?.model === 'Anthropic \u00b7 each agent\u2019s model',
    );
    const { controller } = await ironbees();
    fake.enqueue(
      toolUse('submit_plan', PLAN_DIVIDE),
      edit(brokenRel, '=> missingValue;', '=> missingValue;\n\n    public static int Other => missingOther;'),
      toolUse('submit_changes', { summary: 'Added Other.' }),
      // Broken.cs is outside the plan: the first submit is questioned, the second taken at its word.
      toolUse('submit_changes', { summary: 'Added Other; Broken.cs needed it.' }),
      // The second attempt: the model refuses the request.
      httpError(400, { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' }),
    );
    let runId = '';
    try {
      const started = await controller.start('Fix the failing Divide test', TARGET);
      runId = started.stateId;
      const failed = await controller.waitFor(['FAILED', 'SUCCESS', 'WAIT_HUMAN', 'CANCELLED'], 240_000);
      assert.equal(failed.currentNode, 'FAILED');
      const shown = await panel.runAt(runId, 'FAILED', 2);
      assert.equal(shown.metadata.endedDuring, 'CODE');
      assert.equal(
        endingNote(shown),
        'Failed during Code: The API rejected the request (400) (the API said: prompt is too long: 250000 tokens > 200000 maximum).',
      );
      assert.deepEqual(
        runTimeline(shown).map((e) => [e.node, e.status]),
        [
          ['INIT', 'failed'],
          ['PLAN', 'done'],
          ['WAIT_PLAN_APPROVAL', 'skipped'],
          ['CODE', 'failed'],
          ['WAIT_DIFF_APPROVAL', 'todo'],
          ['VALIDATE', 'todo'],
          ['DECIDE', 'todo'],
          ['REVIEW', 'todo'],
          ['FAILED', 'failed'],
        ],
      );
      assert.equal(runTimeline(shown)[0]?.note, 'The build failed before any edit (1 error)');
      const view = validationView(shown);
      assert.equal(view?.buildOk, false);
      assert.deepEqual(view?.buildErrors.map((e) => [e.code, e.message.match(/'(\w+)'/)?.[1], e.preExisting]).sort(), [
        ['CS0103', 'missingOther', false],
        ['CS0103', 'missingValue', true],
      ]);
    } finally {
      if (runId) await vscode.commands.executeCommand('ironbees.revertRun', runId);
      await vscode.commands.executeCommand('notifications.clearAll');
      fs.rmSync(broken, { force: true });
    }
    assert.deepEqual(readWorkspaceBytes(SOURCE), original);
  });

  it('a file the person changed under review is proposed again on their version, not FAILED; the review actions go when the run ends; cancelled, the timeline says where', async () => {
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'always');
    await setSetting('maxIterations', 2);
    const { controller, review } = await ironbees();
    fake.enqueue(
      toolUse('submit_plan', PLAN_DIVIDE),
      edit(SOURCE, 'return a * b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
    const started = await controller.start('Fix the failing Divide test', TARGET);
    const personal = `// Kept by the person.\n${original?.toString('utf8') ?? ''}`;
    try {
      const first = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED', 'SUCCESS'], 240_000);
      assert.equal(first.currentNode, 'WAIT_DIFF_APPROVAL', JSON.stringify(first.metadata.error ?? null));
      assert.deepEqual(await acceptLensLines(started.stateId), [17], 'the hunk\u2019s Accept is offered while the review is pending');

      // The person saves their own change to the file under review, then accepts the proposal.
      fs.writeFileSync(path.join(workspaceRoot(), SOURCE), personal);
      fake.enqueue(
        edit(SOURCE, 'return a * b;', 'return a / b;'),
        toolUse('submit_changes', { summary: 'Divide divides, on your version.' }),
      );
      await vscode.commands.executeCommand('ironbees.acceptAll');
      const reproposing = await panel.runAt(started.stateId, 'CODE', 2, 60_000);
      const trace = JSON.stringify(
        panel.messages.flatMap((m) =>
          m.type === 'state' && m.run
            ? [[m.run.currentNode, m.run.iterationCount, m.run.metadata.editConflict ?? null, m.run.metadata.error ?? null]]
            : [],
        ),
      );
      assert.equal(
        conflictNote(reproposing),
        `${SOURCE} changed while under review: nothing was written over your version; the agent proposes again on top of it.`,
        trace,
      );
      assert.deepEqual(steeringTrail(reproposing)?.attempts, [
        {
          iteration: 1,
          outcome: 'not applied',
          files: [SOURCE],
          summary: 'Divide divides.',
          feedback: `${SOURCE} changed on disk under review`,
        },
      ]);

      const second = await panel.runAt(started.stateId, 'WAIT_DIFF_APPROVAL', 2, 240_000);
      assert.deepEqual(
        second.codeDiffs.map((d) => [d.filePath, d.originalContent, d.newContent]),
        [[SOURCE, personal, personal.replace('return a * b;', 'return a / b;')]],
        'proposed again against the person\u2019s version',
      );
      assert.equal(readWorkspaceBytes(SOURCE)?.toString('utf8'), personal, 'nothing was written over it');

      await vscode.commands.executeCommand('ironbees.cancelRun', { confirm: false });
      const cancelled = await panel.runAt(started.stateId, 'CANCELLED', 2);
      assert.equal(endingNote(cancelled), 'Cancelled during Review changes.');
      assert.deepEqual(
        runTimeline(cancelled).map((e) => [e.node, e.status]),
        [
          ['INIT', 'done'],
          ['PLAN', 'done'],
          ['WAIT_PLAN_APPROVAL', 'skipped'],
          ['CODE', 'done'],
          ['WAIT_DIFF_APPROVAL', 'stopped'],
          ['VALIDATE', 'todo'],
          ['DECIDE', 'todo'],
          ['REVIEW', 'todo'],
          ['CANCELLED', 'stopped'],
        ],
      );
      // The run ended: no review to act on, its diff tabs (and their ✓/✕) closed, no Accept lens.
      await eventually('the review tabs to close', () => reviewDiffTabs().length === 0);
      assert.equal(review.review, null);
      assert.deepEqual(await acceptLensLines(started.stateId), []);
    } finally {
      if (controller.isLive) await controller.cancel().catch(() => undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      fs.writeFileSync(path.join(workspaceRoot(), SOURCE), original ?? '');
    }
  });
});

/** The lines of the proposed side of SOURCE that carry an "Accept" lens for run `runId`. */
async function acceptLensLines(runId: string): Promise<number[]> {
  const proposed = await vscode.workspace.openTextDocument(reviewUri('proposed', runId, SOURCE));
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposed.uri);
  return lenses.filter((lens) => lens.command?.command === 'ironbees.acceptHunk').map((lens) => lens.range.start.line);
}

/** Waits until the planner's version `n` is at the plan gate. */
async function planVersion(controller: Awaited<ReturnType<typeof ironbees>>['controller'], n: number): Promise<CodingState> {
  return eventually(
    `plan version ${n} at the gate`,
    () => {
      const state = controller.state;
      const versions = state?.metadata.planVersions;
      return state?.currentNode === 'WAIT_PLAN_APPROVAL' && Array.isArray(versions) && versions.length === n && state;
    },
    120_000,
  );
}
