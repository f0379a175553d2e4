// Cancelling from anywhere, failing from any step, the approval policies, and restoring a
// persisted snapshot. Real statechart, fake steps held wherever the test needs them.

import { strict as assert } from 'node:assert';
import { createActor } from 'xstate';
import { TERMINAL_NODES, WORKFLOW_NODES } from '../../../src/core/model';
import type { WorkflowNode } from '../../../src/core/model';
import { runMachine } from '../../../src/core/workflow/machine';
import { FakeSteps } from './fake-steps';
import type { StepName } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, failing, passing, planOutput, runInput } from './samples';

// REVIEW is on a route of its own (review-machine.test.ts): only a run with reviews on goes there.
const NON_FINAL = WORKFLOW_NODES.filter((n) => !TERMINAL_NODES.includes(n) && n !== 'REVIEW');
const STEP_AT: Partial<Record<WorkflowNode, StepName>> = {
  INIT: 'captureBaseline',
  PLAN: 'plan',
  CODE: 'code',
  VALIDATE: 'validate',
  DECIDE: 'decide',
  ESCALATE: 'writeHandoff',
};

/** Each move takes the run from ROUTE[i] to ROUTE[i + 1] (one iteration allowed, so it escalates). */
const ROUTE: WorkflowNode[] = [
  'INIT',
  'PLAN',
  'WAIT_PLAN_APPROVAL',
  'CODE',
  'WAIT_DIFF_APPROVAL',
  'VALIDATE',
  'DECIDE',
  'ESCALATE',
  'WAIT_HUMAN',
];
const MOVES: ((steps: FakeSteps, run: MachineRun) => unknown)[] = [
  (steps) => steps.script('captureBaseline', { output: baseline() }),
  (steps) => steps.script('plan', { output: planOutput() }),
  (_, run) => run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' }),
  (steps) => steps.script('code', { output: codeOutput() }),
  (_, run) => run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }),
  (steps) => steps.script('validate', { output: failing(1) }),
  (steps) => steps.script('decide', { output: { verdict: 'escalate' } }),
  (steps) => steps.script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } }),
];

/** A run held at `node`: its step (if any) has started and waits for an answer. */
async function holdAt(node: WorkflowNode): Promise<{ steps: FakeSteps; run: MachineRun }> {
  const steps = new FakeSteps(false);
  const run = new MachineRun(steps, { maxIterations: 1 });
  for (let i = 0; i < ROUTE.indexOf(node); i++) {
    await run.reach(ROUTE[i]);
    await MOVES[i](steps, run);
  }
  await run.reach(node);
  const step = STEP_AT[node];
  if (step) await waitUntil(() => steps.calls(step) > 0);
  return { steps, run };
}

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('run machine: cancel, failure, policies, restore', function () {
  this.timeout(10_000);
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  it('holds at each node of the route in order', async () => {
    ({ run } = await holdAt('WAIT_HUMAN'));
    assert.deepEqual(run.nodes, ROUTE);
  });

  for (const node of NON_FINAL) {
    it(`CANCEL at ${node} ends CANCELLED and stops its step`, async () => {
      const held = await holdAt(node);
      run = held.run;
      run.actor.send({ type: 'CANCEL' });
      await run.reach('CANCELLED');
      assert.equal(run.snapshot.status, 'done');
      const step = STEP_AT[node];
      if (step) await waitUntil(() => held.steps.aborted.includes(step));
    });
  }

  for (const [node, step] of Object.entries(STEP_AT) as [WorkflowNode, StepName][]) {
    it(`a ${step} step that throws ends FAILED with the error kept`, async () => {
      const held = await holdAt(node);
      run = held.run;
      held.steps.script(step, { error: new Error(`${step} exploded`) });
      await run.reach('FAILED');
      assert.equal(run.snapshot.context.error, `${step} exploded`);
      assert.equal(run.snapshot.status, 'done');
    });
  }

  it('a final node ignores CANCEL', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'never' } });
    await run.reach('SUCCESS');
    run.actor.send({ type: 'CANCEL' });
    assert.equal(run.snapshot.value, 'SUCCESS');
  });

  it('gates ignore the events of other gates', async () => {
    ({ run } = await holdAt('WAIT_PLAN_APPROVAL'));
    run.actor.send({ type: 'CONTINUE', guidance: 'x', additionalIterations: 1 });
    run.actor.send({ type: 'STOP' });
    assert.equal(run.snapshot.value, 'WAIT_PLAN_APPROVAL');
  });

  describe('approval policies', () => {
    /** Fails once, then passes. */
    function twoIterations(): FakeSteps {
      return new FakeSteps()
        .script('captureBaseline', { output: baseline() })
        .script('plan', { output: planOutput() })
        .script('code', { output: codeOutput() }, { output: codeOutput() })
        .script('validate', { output: failing(1) }, { output: passing() });
    }

    it('plan "never" goes straight to the first iteration of the coder', async () => {
      const steps = twoIterations();
      run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'never' } });
      await run.reach('SUCCESS');
      assert.ok(!run.nodes.includes('WAIT_PLAN_APPROVAL'));
      assert.ok(!run.nodes.includes('WAIT_DIFF_APPROVAL'));
      assert.equal(steps.inputs.code[0].iteration, 1);
    });

    it('diffs "first" waits in the first iteration only', async () => {
      const steps = twoIterations();
      run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'first' } });
      await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' });
      await run.reach('SUCCESS');
      assert.equal(run.nodes.filter((n) => n === 'WAIT_DIFF_APPROVAL').length, 1);
      assert.equal(steps.calls('code'), 2);
    });

    it('diffs "first" asks again when the first iteration’s diffs were rejected', async () => {
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      steps.script('code', { output: codeOutput() }, { output: codeOutput() });
      run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'first' } });
      await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'no' });
      await run.reach('WAIT_DIFF_APPROVAL', 2);
    });

    it('diffs "always" waits in every iteration', async () => {
      const steps = twoIterations();
      run = new MachineRun(steps, { approval: { plan: 'always', diffs: 'always' } });
      await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
      await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' });
      await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 2);
      await run.reach('SUCCESS');
    });

    it('no edits means nothing to approve: straight to validation', async () => {
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      steps.script('code', { output: codeOutput([]) }).script('validate', { output: passing() });
      run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'always' } });
      await run.reach('SUCCESS');
      assert.ok(!run.nodes.includes('WAIT_DIFF_APPROVAL'));
      assert.deepEqual(steps.inputs.validate[0].edits, []);
    });
  });

  it('a persisted snapshot, restored, starts the step in flight again with the same input', async () => {
    const held = await holdAt('VALIDATE');
    run = held.run;
    const persisted = JSON.parse(JSON.stringify(run.actor.getPersistedSnapshot())) as ReturnType<typeof run.actor.getPersistedSnapshot>;
    run.stop();

    const again = new FakeSteps(false).script('validate', { output: passing() }).script('decide', { output: { verdict: 'pass' } });
    const restored = createActor(runMachine.provide({ actors: again.actors() }), { snapshot: persisted, input: runInput() });
    restored.start();
    try {
      await waitUntil(() => restored.getSnapshot().value === 'SUCCESS');
      assert.equal(again.calls('validate'), 1);
      assert.deepEqual(again.inputs.validate[0], held.steps.inputs.validate[0]);
      assert.equal(again.calls('code'), 0, 'finished steps are not repeated');
      assert.equal(again.calls('captureBaseline'), 0);
    } finally {
      restored.stop();
    }
  });
});
