// A window reload mid-run, through the extension's own deactivate() and activate() (the API's
// `reload()`): the live run is interrupted (persisted, resumable), the new instance shows it again
// and offers it for resume in a notification, and accepting the offer brings it back to its gate.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { TARGET, eventually, extensionApi, ironbees, repeatCommandUntil, testHooks } from './helpers';

describe('resume after re-activation (real deactivate() and activate())', function () {
  this.timeout(300_000);

  it('offers the interrupted run after re-activation; accepting the offer resumes it, and its gate is answered by the new commands', async () => {
    const before = await ironbees();
    const first = await before.controller.start('Fix the failing Calculator test', TARGET);
    await before.controller.waitFor(['WAIT_PLAN_APPROVAL']);
    // Only the offer should be there for the primary action below.
    await vscode.commands.executeCommand('notifications.clearAll');

    const api = await extensionApi();
    assert.equal(await (await testHooks()).reload(), api, 'the same API object, updated');
    const after = await ironbees();
    assert.notEqual(after.controller, before.controller, 'activate() built a new controller');
    assert.equal(before.controller.isLive, false, 'deactivate() let go of the run without ending it');
    assert.deepEqual(
      (await after.controller.unfinishedRuns()).map((run) => run.runId),
      [first.stateId],
    );
    // The new instance shows the run where it stopped (the panel and status bar come back to it).
    await eventually('the interrupted run to be shown again', () => after.controller.state?.stateId === first.stateId);
    assert.equal(after.controller.state?.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.equal(after.controller.isLive, false);

    // The offer is a notification whose primary action is "Resume".
    const backAtGate = new Promise<CodingState>((resolve) => {
      const listener = after.controller.onDidChangeState((state) => {
        if (!state || !after.controller.isLive || state.currentNode !== 'WAIT_PLAN_APPROVAL') return;
        listener.dispose();
        resolve(state);
      });
    });
    const resumed = await repeatCommandUntil('notification.acceptPrimaryAction', backAtGate, 30_000);
    assert.equal(resumed.stateId, first.stateId);

    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await after.controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED'], 120_000);
    assert.equal(atDiffs.stateId, first.stateId);
    assert.equal(atDiffs.currentNode, 'WAIT_DIFF_APPROVAL');

    await vscode.commands.executeCommand('ironbees.cancelRun', { confirm: false });
    const cancelled = await after.controller.waitFor(['CANCELLED']);
    assert.equal(cancelled.stateId, first.stateId);
    assert.equal(after.statusBar.renderedText, '$(circle-slash) Ironbees 1/5 · Cancelled');
    assert.deepEqual(await after.controller.unfinishedRuns(), []);
  });

  it('offers nothing after a re-activation when no run is unfinished', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await (await testHooks()).reload();
    const { controller } = await ironbees();
    assert.deepEqual(await controller.unfinishedRuns(), []);
    // Nothing to accept: the primary action finds no offer, and no run starts.
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(controller.isLive, false);
    await eventually('the latest run to be shown', () => controller.state?.currentNode === 'CANCELLED');
  });
});
