// A request for help (REQUEST_HELP, e.g. apmas_request_help over MCP) escalates a working run: the
// step in flight stops, the hand-off says why, the run waits for a person, and CONTINUE goes back
// to the step that asked. At a gate or after the end it changes nothing.

import { strict as assert } from 'node:assert';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, planOutput, workflow } from './samples';

const HANDOFF = { output: { handoffPath: '/ws/.ironbees/runs/run-1/HANDOFF.md' } };

describe('run machine: a request for help', () => {
  it('from PLAN: stops the planner, hands off with the reason, and CONTINUE plans again with the answer, spending no iteration', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
    const run = new MachineRun(steps, { maxIterations: 2 });
    try {
      await run.reach('PLAN');
      run.actor.send({ type: 'REQUEST_HELP', reason: 'Which Divide: int or double?' });
      await run.reach('ESCALATE');
      assert.deepEqual(steps.aborted, ['plan'], 'the planner was stopped');
      assert.match(steps.inputs.writeHandoff[0].reason, /Help was requested during PLAN: Which Divide: int or double\?/);
      assert.deepEqual(steps.inputs.writeHandoff[0].state.metadata.helpRequest, { reason: 'Which Divide: int or double?', from: 'PLAN' });
      steps.script('writeHandoff', HANDOFF);
      await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'int, truncating', additionalIterations: 3 });
      await run.reach('PLAN', 2);
      assert.match(steps.inputs.plan[1].feedback ?? '', /You asked for help: Which Divide.*\n.*The person answered: int, truncating/);
      const context = run.snapshot.context;
      assert.equal(context.iterationCount, 0);
      assert.equal(context.maxIterations, 2, 'no coding attempt was spent, none is added');
      assert.equal(context.helpRequest, null);
    } finally {
      run.stop();
    }
  });

  it('from CODE: stops the coder; CONTINUE goes on coding with the guidance, as after a failed validation', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    const run = new MachineRun(steps, { maxIterations: 2, approval: { plan: 'never', diffs: 'always' } });
    try {
      await run.reach('CODE');
      run.actor.send({ type: 'REQUEST_HELP', reason: 'Tests contradict the spec' });
      await run.reach('ESCALATE');
      assert.deepEqual(steps.aborted, ['code']);
      steps.script('writeHandoff', HANDOFF);
      await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'Follow the tests', additionalIterations: 1 });
      await run.reach('CODE', 2);
      assert.equal(run.snapshot.context.iterationCount, 2);
      assert.equal(run.snapshot.context.maxIterations, 3);
      assert.equal(run.snapshot.context.guidance, 'Follow the tests');
      steps.script('code', { output: codeOutput() });
      await run.reach('WAIT_DIFF_APPROVAL');
    } finally {
      run.stop();
    }
  });

  it('is ignored at a gate, where a person is already asked', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    const run = new MachineRun(steps);
    try {
      await run.reach('WAIT_PLAN_APPROVAL');
      run.actor.send({ type: 'REQUEST_HELP', reason: 'late' });
      assert.equal(run.snapshot.value, 'WAIT_PLAN_APPROVAL');
      assert.equal(run.snapshot.context.helpRequest, null);
    } finally {
      run.stop();
    }
  });
});

describe('orchestrator.requestHelp', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it('escalates a live run at a working step: persisted, hand-off written, then WAIT_HUMAN; false at a gate or for an unknown run', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
    const orchestrator = orchestratorOver(ws.host, steps);
    const controller = new AbortController();
    const stream = new StateStream(orchestrator.execute('Fix Divide', workflow({ workspaceRoot: ws.dir }), controller.signal));
    try {
      const atPlan = await stream.until('PLAN');
      assert.equal(await orchestrator.requestHelp('no-such-run', 'x'), false);
      assert.equal(await orchestrator.requestHelp(atPlan.stateId, 'The request names no test'), true);
      assert.equal(ws.state(atPlan.stateId).codingState.currentNode, 'ESCALATE', 'on disk when requestHelp returns');
      const waiting = await stream.until('WAIT_HUMAN');
      assert.deepEqual(waiting.metadata.helpRequest, { reason: 'The request names no test', from: 'PLAN' });
      assert.match(ws.runFile(atPlan.stateId, 'HANDOFF.md') ?? '', /Help was requested during PLAN: The request names no test/);
      assert.equal(await orchestrator.requestHelp(atPlan.stateId, 'again'), false, 'already waiting for a person');
      await orchestrator.approve(atPlan.stateId, { type: 'STOP' });
      assert.deepEqual(await stream.rest(), ['CANCELLED']);
    } finally {
      controller.abort();
    }
  });
});
