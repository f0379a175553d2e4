// A reverted run says so in its state, so the panel shows "Reverted" rather than the ending it had.

import { strict as assert } from 'node:assert';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { revertRun } from '../../../src/core/workflow/revert-run';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, passing, planOutput, workflow } from './samples';

describe('revertRun', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  async function finishedRun(applies: boolean): Promise<{ runId: string; orchestrator: ReturnType<typeof orchestratorOver> }> {
    ws.write('src/A.cs', 'class A {}\n');
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', 'class A {}\n', 'class A { int X; }\n')]) })
      .script('validate', { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    if (applies) steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const stream = new StateStream(
      orchestrator.execute(
        'Add X',
        workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
        AbortSignal.timeout(10_000),
      ),
    );
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    return { runId: stream.runId, orchestrator };
  }

  it('puts the files back and records when, in the state (metadata revertedAt)', async () => {
    const { runId, orchestrator } = await finishedRun(true);
    const report = await revertRun(orchestrator.store, runId, () => new Date('2026-11-25T10:00:00.000Z'));
    assert.deepEqual(report.restored, ['src/A.cs']);
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), 'class A {}\n');
    const state = ws.state(runId).codingState;
    assert.equal(state.metadata.revertedAt, '2026-11-25T10:00:00.000Z');
    assert.equal(state.currentNode, 'SUCCESS', 'the ending stays what it was; the panel adds "Reverted"');
    const [summary] = await orchestrator.store.list();
    assert.equal(summary.runId, runId);
    assert.equal(summary.revertedAt, '2026-11-25T10:00:00.000Z', 'the run listing (history, `ironbees runs`) carries it');
  });

  it('a run that changed no file is not marked reverted', async () => {
    const { runId, orchestrator } = await finishedRun(false);
    await revertRun(orchestrator.store, runId);
    assert.equal(ws.state(runId).codingState.metadata.revertedAt, undefined);
    const [summary] = await orchestrator.store.list();
    assert.equal(summary.runId, runId);
    assert.equal('revertedAt' in summary, false);
  });
});
