// The panel tells the truth, in the real extension (real SDK against the scripted fake Messages
// API): the baseline's terminal is labelled as the baseline, a rejected proposal goes back to the
// coder with the reason in the same iteration, three in a row hand over (with the coder's summaries
// kept), and after a window reload the
// unfinished run reads "Paused" until it is resumed; cancelled, it says during which step.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import {
  SOURCE,
  TARGET,
  eventually,
  ironbees,
  readWorkspaceBytes,
  setSetting,
  setUserSetting,
  stopUsingFakeModel,
  testHooks,
  useFakeModel,
} from './helpers';

const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [{ number: 1, description: 'Divide instead of multiply', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The bug' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

describe('a panel that tells the truth (real SDK against a fake Messages API)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  const original = readWorkspaceBytes(SOURCE);

  before(async () => {
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'always');
    await setSetting('maxIterations', 1);
  });

  after(async () => {
    await setSetting('maxIterations', undefined);
    for (const key of ['approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('labels the baseline terminal; a rejection on the last iteration goes back to the coder, three hand over; after a reload the run is Paused; cancelled, it says where', async () => {
    const started: vscode.Task[] = [];
    const listener = vscode.tasks.onDidStartTask((event) => started.push(event.execution.task));
    const proposal = (n: number) => [
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: '=> a + b;', new_str: '=> b + a;' }),
      toolUse('submit_changes', { summary: `Swapped the operands of Add (${n}).` }),
    ];
    fake.enqueue(toolUse('submit_plan', PLAN), ...proposal(1), ...proposal(2), ...proposal(3));
    const { controller, review: reviewing } = await ironbees();
    try {
      await controller.start('Fix Divide', TARGET);
      const review = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'SUCCESS', 'FAILED', 'CANCELLED'], 240_000);
      assert.equal(review.currentNode, 'WAIT_DIFF_APPROVAL', JSON.stringify(review.metadata.error ?? null));
    } finally {
      listener.dispose();
    }
    const ours = started.filter((task) => task.source === 'Ironbees').map((task) => task.name);
    assert.ok(ours.includes('baseline dotnet build'), JSON.stringify(ours));
    assert.ok(
      ours.every((name) => name.startsWith('baseline ')),
      `only the baseline ran dotnet so far: ${JSON.stringify(ours)}`,
    );

    // Reject All from the review bar on the last (only) iteration: the coder proposes again, told why.
    for (const [n, why] of ['Leave Add alone', 'Still no', 'No'].entries()) {
      // Proposal n+1 (one plan request, two coder requests per proposal) is under review.
      await eventually(
        `proposal ${n + 1} under review`,
        () => fake.requests.length >= 3 + 2 * n && reviewing.review !== null && controller.state?.currentNode === 'WAIT_DIFF_APPROVAL',
      );
      assert.equal(controller.state?.iterationCount, 1, 'a rejection uses no iteration');
      await vscode.commands.executeCommand('ironbees.rejectAll', why);
    }
    assert.ok(
      fake.requests.slice(3).some((r) => JSON.stringify(r.body).includes('Leave Add alone')),
      'the coder heard the reason',
    );
    const handedOver = await controller.waitFor(['WAIT_HUMAN', 'FAILED'], 60_000);
    assert.equal(handedOver.currentNode, 'WAIT_HUMAN');
    assert.equal(handedOver.iterationCount, 1);
    assert.equal(fake.pending, 0);
    const attempts = handedOver.metadata.attempts as Array<{ outcome: string; summary?: string; feedback?: string }>;
    assert.deepEqual(
      attempts.map((a) => [a.outcome, a.summary, a.feedback]),
      [
        ['rejected', 'Swapped the operands of Add (1).', 'Leave Add alone'],
        ['rejected', 'Swapped the operands of Add (2).', 'Still no'],
        ['rejected', 'Swapped the operands of Add (3).', 'No'],
      ],
    );
    const handoff = String(handedOver.metadata.handoffPath ?? '');
    assert.match(
      Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(handoff))).toString('utf8'),
      /The person rejected 3 proposals in a row in iteration 1 of 1/,
    );
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'nothing rejected was written');

    await vscode.commands.executeCommand('notifications.clearAll');
    await (await testHooks()).reload();
    const after = await ironbees();
    await eventually('the unfinished run to be shown again', () => after.controller.state?.stateId === handedOver.stateId);
    assert.equal(after.controller.interrupted, true);
    assert.equal(after.statusBar.renderedText, '$(debug-pause) Ironbees 1/1 · Paused (Needs you)');

    await vscode.commands.executeCommand('ironbees.cancelRun', { confirm: false });
    await vscode.commands.executeCommand('notifications.clearAll');
    const cancelled = await eventually(
      'the run to end CANCELLED',
      () => after.controller.state?.currentNode === 'CANCELLED' && after.controller.state,
    );
    assert.equal(cancelled.metadata.endedDuring, 'WAIT_HUMAN');
    assert.equal(after.controller.interrupted, false);
    assert.equal(after.statusBar.renderedText, '$(circle-slash) Ironbees 1/1 · Cancelled');
  });

  it('the review bar: Next Hunk moves to the change in the diff, Accept All applies it; reverted, the run says so', async () => {
    await setSetting('maxIterations', 2);
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
    const { controller } = await ironbees();
    const started = await controller.start('Fix Divide', TARGET);
    const review = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'SUCCESS', 'FAILED', 'CANCELLED'], 240_000);
    assert.equal(review.currentNode, 'WAIT_DIFF_APPROVAL');

    await vscode.commands.executeCommand('ironbees.nextHunk');
    const proposed = await eventually('the proposed side with the cursor on the change', () =>
      vscode.window.visibleTextEditors.find(
        (e) => e.document.uri.scheme === 'ironbees-proposed' && e.document.lineAt(e.selection.active.line).text.includes('return a / b;'),
      ),
    );
    assert.equal(proposed.document.lineAt(proposed.selection.active.line).text.trim(), 'return a / b;');

    await vscode.commands.executeCommand('ironbees.acceptAll');
    const done = await controller.waitFor(['SUCCESS', 'WAIT_HUMAN', 'FAILED'], 240_000);
    assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.metadata.error ?? done.testResult?.failures ?? null));
    assert.match(readWorkspaceBytes(SOURCE)?.toString('utf8') ?? '', /return a \/ b;/);

    await vscode.commands.executeCommand('ironbees.revertRun', started.stateId);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'restored byte for byte');
    const shown = await eventually(
      'the panel state to say reverted',
      () => typeof controller.state?.metadata.revertedAt === 'string' && controller.state,
    );
    assert.equal(shown.currentNode, 'SUCCESS', 'the ending stays; the panel adds Reverted');
    assert.equal(typeof (await controller.store.load(started.stateId)).codingState.metadata.revertedAt, 'string');
  });
});
