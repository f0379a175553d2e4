// The hand-off at WAIT_HUMAN (real SDK against the scripted fake Messages API, one iteration):
// Continue with guidance codes again, Stop ends the run CANCELLED, and Revert on a run waiting
// there stops it first, then restores every file it wrote, byte for byte.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
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
    summary: 'Tidy Add.',
    steps: [{ number: 1, description: 'Swap the operands of Add', actionType: 'MODIFY', filePath: SOURCE, rationale: 'Style' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

/** One coder iteration that changes the file but leaves the failing Divide test failing. */
function uselessIteration(from: string, to: string): Array<ReturnType<typeof toolUse>> {
  return [
    toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: from, new_str: to }),
    toolUse('submit_changes', { summary: 'Tidied Add.' }),
  ];
}

describe('the hand-off at WAIT_HUMAN: Continue, Stop, Revert (real SDK against a fake Messages API)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  const original = readWorkspaceBytes(SOURCE);

  before(async () => {
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
    // Straight to the hand-off: no gates before it, and one iteration only.
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'never');
    await setSetting('maxIterations', 1);
  });

  after(async () => {
    await setSetting('maxIterations', undefined);
    for (const key of ['approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  async function runToHandoff(): Promise<CodingState> {
    fake.enqueue(toolUse('submit_plan', PLAN), ...uselessIteration('=> a + b;', '=> b + a;'));
    const { controller } = await ironbees();
    await controller.start('Fix Divide', TARGET);
    const waiting = await controller.waitFor(['WAIT_HUMAN', 'SUCCESS', 'FAILED', 'CANCELLED'], 240_000);
    assert.equal(waiting.currentNode, 'WAIT_HUMAN', JSON.stringify(waiting.metadata.error ?? waiting.testResult));
    assert.equal(waiting.iterationCount, 1);
    assert.equal(controller.isLive, true);
    assert.notDeepEqual(readWorkspaceBytes(SOURCE), original, 'the iteration wrote the file');
    return waiting;
  }

  it('Continue codes again with the guidance and more iterations, and Stop then ends the run CANCELLED, persisted', async () => {
    const waiting = await runToHandoff();
    const { controller, actions, statusBar } = await ironbees();
    fake.enqueue(...uselessIteration('=> b + a;', '=> (b + a);'));
    const asked = fake.requests.length;
    await actions.continueRun('Look at Divide, not Add', 1);
    // Not `waitFor(['WAIT_HUMAN'])`: the run may still show the first hand-off for a moment.
    const second = await eventually(
      'the second hand-off',
      () => controller.state?.currentNode === 'WAIT_HUMAN' && controller.state.iterationCount === 2 && controller.state,
      240_000,
    );
    assert.equal(second.stateId, waiting.stateId);
    assert.equal(second.iterationCount, 2);
    assert.equal(second.maxIterations, 2);
    const coderPrompt = JSON.stringify(fake.requests.slice(asked)[0]?.body.messages ?? []);
    assert.match(coderPrompt, /Look at Divide, not Add/, 'the coder was given the guidance');

    await actions.stopRun();
    const stopped = await controller.waitFor(['CANCELLED']);
    assert.equal(stopped.stateId, waiting.stateId);
    assert.equal((await controller.store.load(waiting.stateId)).codingState.currentNode, 'CANCELLED');
    assert.equal(statusBar.renderedText, '$(circle-slash) Ironbees 2/2 · Cancelled');
    await vscode.commands.executeCommand('ironbees.revertRun', waiting.stateId);
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'restored byte for byte');
  });

  it('Revert on a run waiting at WAIT_HUMAN stops it (CANCELLED, persisted), then restores its files byte for byte', async () => {
    const waiting = await runToHandoff();
    const { controller } = await ironbees();
    await vscode.commands.executeCommand('ironbees.revertRun', waiting.stateId);
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'restored byte for byte');
    assert.equal(controller.isLive, false);
    assert.equal(controller.state?.currentNode, 'CANCELLED');
    assert.equal((await controller.store.load(waiting.stateId)).codingState.currentNode, 'CANCELLED');
    assert.deepEqual(await controller.unfinishedRuns(), []);
    const [latest] = await controller.history();
    assert.equal(latest?.runId, waiting.stateId);
    assert.equal(latest?.currentNode, 'CANCELLED');
  });

  it('Revert after a reload (the run waits at WAIT_HUMAN on disk only) ends it CANCELLED too, and restores its files', async () => {
    const waiting = await runToHandoff();
    await vscode.commands.executeCommand('notifications.clearAll');
    await (await testHooks()).reload();
    const { controller } = await ironbees();
    await eventually('the waiting run to be shown again', () => controller.state?.stateId === waiting.stateId);
    assert.equal(controller.isLive, false);
    assert.equal(controller.state?.currentNode, 'WAIT_HUMAN');
    await vscode.commands.executeCommand('ironbees.revertRun', waiting.stateId);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'restored byte for byte');
    assert.equal(controller.isLive, false, 'not resumed to be reverted');
    assert.equal(controller.state?.currentNode, 'CANCELLED');
    assert.equal((await controller.store.load(waiting.stateId)).codingState.currentNode, 'CANCELLED');
    assert.deepEqual(await controller.unfinishedRuns(), []);
  });
});
