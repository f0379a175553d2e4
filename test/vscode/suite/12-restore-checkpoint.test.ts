// Issue 27 item 3 in the real extension (real SDK against the scripted fake Messages API): after a
// two-iteration run the panel is sent the run's checkpoints, offers "Restore here" on each attempt,
// and the panel's `restoreCheckpoint` message shows the change (now ↔ the checkpoint), asks in a
// modal, rewinds through the core (the file gets iteration 1's bytes exactly) and leaves the run at
// WAIT_HUMAN for guidance. Declined, nothing changes; a file the person changed since is refused
// with the core's message, and "Restore Anyway" restores it.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHECKPOINT_SCHEME, RESTORE_ANYWAY_CHOICE, RESTORE_CHOICE } from '../../../src/extension/checkpoint-restore';
import type { PanelCheckpoint } from '../../../src/shared/protocol';
import { webviewMessageSchema } from '../../../src/shared/protocol';
import { restorePoints } from '../../../webview-ui/src/state/restore-points';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  SOURCE,
  TARGET,
  eventually,
  ironbees,
  readWorkspaceBytes,
  setSetting,
  setUserSetting,
  stopUsingFakeModel,
  useFakeModel,
  workspaceRoot,
} from './helpers';
import { capturePanelMessages } from './panel-messages';
import type { PanelCapture } from './panel-messages';

const MODEL = 'claude-restore-fake';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [
      { number: 1, description: 'Divide instead of multiplying', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The failing test' },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function edit(from: string, to: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: from, new_str: to });
}

interface Asked {
  message: string;
  detail: string | undefined;
  items: string[];
}

describe('Restore here in the panel: diff, confirm, rewind to a checkpoint, wait for guidance (real SDK against a fake Messages API)', function () {
  this.timeout(400_000);
  let fake: FakeAnthropic;
  let panel: PanelCapture;
  const original = readWorkspaceBytes(SOURCE);
  const showWarning = vscode.window.showWarningMessage;
  const asked: Asked[] = [];
  let answers: Array<string | undefined> = [];
  const failingFirst = process.env.IRONBEES_FAILING_FIRST;

  before(async () => {
    fake = await startFakeAnthropic();
    panel = await capturePanelMessages();
    await useFakeModel(fake.url);
    await setSetting('model', MODEL);
    await setUserSetting('approval.diffs', 'never');
    await setUserSetting('approval.plan', 'never');
    const { controllerDeps } = await ironbees();
    await eventually(
      'the model setting to be read',
      () => controllerDeps.settings().model === MODEL && !controllerDeps.settings().demoModel,
    );
    // The modal confirmations answer from `answers`, in order, and are recorded.
    vscode.window.showWarningMessage = (async (message: string, ...rest: unknown[]) => {
      const options = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as vscode.MessageOptions) : undefined;
      asked.push({ message, detail: options?.detail, items: rest.filter((r): r is string => typeof r === 'string') });
      return answers.shift();
    }) as unknown as typeof vscode.window.showWarningMessage;
  });

  after(async () => {
    vscode.window.showWarningMessage = showWarning;
    if (failingFirst === undefined) delete process.env.IRONBEES_FAILING_FIRST;
    else process.env.IRONBEES_FAILING_FIRST = failingFirst;
    panel?.dispose();
    const { controller } = await ironbees();
    if (controller.state && controller.isLive) await controller.cancel().catch(() => undefined);
    await setSetting('maxIterations', undefined);
    await setSetting('model', undefined);
    for (const key of ['approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('rewinds to iteration 1 through the panel message: its bytes exactly, the run at WAIT_HUMAN; declined, nothing; a person\u2019s edit refused, then restored anyway', async () => {
    // Every test runs after each edit, so each checkpoint's test counts are the whole suite's.
    process.env.IRONBEES_FAILING_FIRST = '0';
    await setSetting('maxIterations', 1);
    const { controller, actions, bridge } = await ironbees();
    // Iteration 1 breaks Add (and leaves Divide failing): the run escalates.
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('Add(int a, int b) => a + b;', 'Add(int a, int b) => a - b;'),
      toolUse('submit_changes', { summary: 'Made Add subtract.' }),
    );
    const started = await controller.start('Fix the failing Divide test', TARGET);
    const runId = started.stateId;
    const abs = path.join(workspaceRoot(), SOURCE);
    try {
      const handedOver = await controller.waitFor(['WAIT_HUMAN', 'SUCCESS', 'FAILED'], 240_000);
      assert.equal(handedOver.currentNode, 'WAIT_HUMAN', JSON.stringify(handedOver.metadata.error ?? null));
      const iteration1 = readWorkspaceBytes(SOURCE);
      assert.match(iteration1?.toString('utf8') ?? '', /=> a - b;/);
      // Iteration 2 puts Add back and fixes Divide: green.
      fake.enqueue(
        edit('Add(int a, int b) => a - b;', 'Add(int a, int b) => a + b;'),
        edit('return a * b;', 'return a / b;'),
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
      assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.metadata.error ?? null));
      const iteration2 = readWorkspaceBytes(SOURCE);

      // The panel is sent the checkpoints; "Restore here" is on attempts 1 and 2, "Back to last green" on iteration 2.
      const list = await eventually('the panel to be sent the run\u2019s checkpoints with iteration 2', () => {
        const last = panel.messages.filter((m) => m.type === 'checkpoints' && m.runId === runId).at(-1);
        const checkpoints = last?.type === 'checkpoints' ? last.checkpoints : [];
        return checkpoints.some((c) => c.kind === 'iteration' && c.iteration === 2) && checkpoints;
      });
      assert.deepEqual(
        list.map((c: PanelCheckpoint) => [c.kind, c.iteration, c.green]),
        [
          ['plan', 1, false],
          ['iteration', 1, false],
          ['escalation', 1, false],
          ['guidance', 2, false],
          ['iteration', 2, true],
        ],
      );
      const points = restorePoints(runId, { runId, list }, false);
      const first = points.attempts[1];
      assert.ok(first, 'Restore here on attempt 1');
      assert.equal(points.attempts[2]?.id, list[4].id);
      assert.equal(points.lastGreen?.id, list[4].id);
      assert.deepEqual(first.tests, { total: 7, passed: 5, failed: 2 });

      const restore = (checkpoint: string) => bridge.handle(webviewMessageSchema.parse({ type: 'restoreCheckpoint', runId, checkpoint }));

      // Declined: the diff was shown, nothing written, the run still SUCCESS.
      // Only the restore's own questions are counted (the escalation's notice asked before).
      asked.length = 0;
      answers = [undefined];
      await restore(first.id);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].message, `Restore run ${runId} to ${first.label}?`);
      assert.match(asked[0].detail ?? '', new RegExp(`restore ${SOURCE}`));
      assert.deepEqual(asked[0].items, [RESTORE_CHOICE]);
      const shown = await eventually('the checkpoint side of the diff to be open', () =>
        vscode.workspace.textDocuments.find((d) => d.uri.scheme === CHECKPOINT_SCHEME && d.uri.path === `/${SOURCE}`),
      );
      assert.equal(shown.getText(), iteration1?.toString('utf8'), 'the diff shows iteration 1\u2019s file');
      assert.deepEqual(readWorkspaceBytes(SOURCE), iteration2);
      assert.equal(controller.state?.currentNode, 'SUCCESS');

      // Confirmed: iteration 1's bytes exactly, the run at WAIT_HUMAN (and the panel told so).
      answers = [RESTORE_CHOICE];
      await restore(first.id);
      assert.ok(readWorkspaceBytes(SOURCE)?.equals(iteration1 as Buffer), 'the file holds iteration 1\u2019s bytes');
      assert.deepEqual(
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.includes('now ↔ checkpoint')),
        [],
        'the preview, now out of date, is closed',
      );
      assert.equal(controller.state?.currentNode, 'WAIT_HUMAN');
      assert.equal(controller.state?.iterationCount, 1);
      await panel.runAt(runId, 'WAIT_HUMAN', 1);
      // Waiting for guidance on purpose, not "interrupted by a window reload".
      const told = panel.messages.filter((m) => m.type === 'state' && m.run?.stateId === runId).at(-1);
      assert.equal(told?.type === 'state' && told.interrupted, false);
      assert.deepEqual(
        (controller.state?.metadata.rewinds as Array<{ checkpoint: string }> | undefined)?.map((r) => r.checkpoint),
        [first.id],
        'the rewind is in the run\u2019s history',
      );

      // A person's edit since: refused with the core's message naming the file; "Restore Anyway" restores the plan's bytes.
      fs.writeFileSync(abs, `// The person's line.\n${iteration1?.toString('utf8') ?? ''}`);
      answers = [RESTORE_CHOICE, RESTORE_ANYWAY_CHOICE];
      asked.length = 0;
      await restore('plan');
      assert.equal(asked.length, 2);
      assert.match(
        asked[1].message,
        new RegExp(`^${SOURCE.replace(/[.]/g, '\\.')} changed since run ${runId} last wrote it; nothing was rewound`),
      );
      assert.deepEqual(asked[1].items, [RESTORE_ANYWAY_CHOICE]);
      assert.ok(readWorkspaceBytes(SOURCE)?.equals(original as Buffer), 'forced: the plan checkpoint\u2019s bytes (before any edit)');
      assert.equal(controller.state?.currentNode, 'WAIT_HUMAN');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      if (controller.isLive) await controller.cancel().catch(() => undefined);
      await vscode.commands.executeCommand('ironbees.revertRun', runId).then(undefined, () => undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      if (original) fs.writeFileSync(abs, original);
    }
    assert.deepEqual(readWorkspaceBytes(SOURCE), original);
  });
});
