// A window reload mid-run: the live run is interrupted (persisted, resumable), a fresh controller
// finds it unfinished and shows it again, and answering its gate resumes it first.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RunController } from '../../../src/extension/run-controller';
import { TARGET, ironbees } from './helpers';

describe('resume after a reload (real extension host)', function () {
  this.timeout(300_000);

  it('offers the interrupted run to a new controller, and approving resumes it', async () => {
    const { controller, controllerDeps, statusBar } = await ironbees();
    const first = await controller.start('Fix the failing Calculator test', TARGET);
    await controller.waitFor(['WAIT_PLAN_APPROVAL']);
    // What deactivate() does when the window closes.
    await controller.shutdown();
    assert.equal(controller.isLive, false);

    const reloaded = new RunController(controllerDeps);
    try {
      const unfinished = await reloaded.unfinishedRuns();
      assert.deepEqual(unfinished.map((run) => run.runId), [first.stateId]);
      await reloaded.restoreLatest();
      assert.equal(reloaded.state?.stateId, first.stateId);
      assert.equal(reloaded.state?.currentNode, 'WAIT_PLAN_APPROVAL');
    } finally {
      reloaded.dispose();
    }

    // The extension's own controller answers the gate: it resumes the run, then approves.
    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED'], 120_000);
    assert.equal(atDiffs.stateId, first.stateId);
    assert.equal(atDiffs.currentNode, 'WAIT_DIFF_APPROVAL');
    assert.equal(controller.isLive, true);

    await vscode.commands.executeCommand('ironbees.cancelRun');
    const cancelled = await controller.waitFor(['CANCELLED']);
    assert.equal(cancelled.stateId, first.stateId);
    assert.equal(statusBar.renderedText, '$(circle-slash) Ironbees 1/5 · Cancelled');
    assert.deepEqual(await controller.unfinishedRuns(), []);
  });
});
