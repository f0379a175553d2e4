// Approving an edited plan through the orchestrator: the plan is held to the submit_plan schema, a
// bad one is refused without touching the run, and a good one reaches the coder normalised.

import { strict as assert } from 'node:assert';
import { OrchestratorError } from '../../../src/core/errors';
import type { ExecutionPlan } from '../../../src/core/model';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, plan, planOutput, workflow } from './samples';

describe('orchestrator: approving an edited plan', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  let controller: AbortController;
  beforeEach(() => {
    ws = new TempWorkspace();
    controller = new AbortController();
  });
  afterEach(() => {
    controller.abort();
    ws.remove();
  });

  async function atPlanGate() {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput() });
    const orchestrator = orchestratorOver(ws.host, steps);
    const stream = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal));
    const waiting = await stream.until('WAIT_PLAN_APPROVAL');
    return { steps, orchestrator, stream, runId: waiting.stateId };
  }

  it('refuses a plan that breaks the schema, naming the fields, and the run still waits with its own plan', async () => {
    const { steps, orchestrator, stream, runId } = await atPlanGate();
    const bad = { summary: '', steps: [{ number: 1, description: 'x', actionType: 'RENAME', filePath: 'a.cs' }], complexity: 'TINY' };
    await assert.rejects(
      orchestrator.approve(runId, { type: 'APPROVE', editedPlan: bad as unknown as ExecutionPlan }),
      (error: Error) =>
        error instanceof OrchestratorError &&
        /edited plan/.test(error.message) &&
        /summary/.test(error.message) &&
        /steps\.0\.actionType/.test(error.message) &&
        /complexity/.test(error.message),
    );
    const noSteps = { ...plan(), steps: [] };
    await assert.rejects(orchestrator.approve(runId, { type: 'APPROVE', editedPlan: noSteps }), /at least one step/);
    await assert.rejects(
      orchestrator.approve(runId, { type: 'APPROVE', editedPlan: 'not a plan' as unknown as ExecutionPlan }),
      OrchestratorError,
    );

    assert.ok(await stream.quietFor(100), 'no transition');
    const state = await orchestrator.getState(runId);
    assert.equal(state.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.deepEqual(state.plan, plan());
    assert.equal(ws.state(runId).codingState.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.equal(steps.calls('code'), 0);
  });

  it('passes a good edited plan to the coder, normalised as a submitted plan is', async () => {
    const { steps, orchestrator, stream, runId } = await atPlanGate();
    const edited = {
      summary: 'Fix Add and test it',
      steps: [
        { number: '1', description: 'Return a + b', actionType: 'modify', filePath: 'src/Calc.cs' },
        { number: 2, description: 'Test Add', actionType: 'CREATE', filePath: 'tests/AddTests.cs', rationale: 'regression' },
      ],
      complexity: 'low',
    };
    await orchestrator.approve(runId, { type: 'APPROVE', editedPlan: edited as unknown as ExecutionPlan });
    await stream.until('WAIT_DIFF_APPROVAL');
    const expected: ExecutionPlan = {
      summary: 'Fix Add and test it',
      steps: [
        { number: 1, description: 'Return a + b', actionType: 'MODIFY', filePath: 'src/Calc.cs', rationale: '' },
        { number: 2, description: 'Test Add', actionType: 'CREATE', filePath: 'tests/AddTests.cs', rationale: 'regression' },
      ],
      affectedFiles: ['src/Calc.cs', 'tests/AddTests.cs'],
      complexity: 'LOW',
    };
    assert.deepEqual(steps.inputs.code[0].plan, expected);
    assert.deepEqual((await orchestrator.getState(runId)).plan, expected);
  });
});
