// A re-plan after the person's feedback that comes back identical is recorded in the state's
// metadata (so the CLI and the panel can say so), and only then: a first plan, or a changed one
// after feedback, carries no such mark.

import { strict as assert } from 'node:assert';
import pc from 'picocolors';
import { PLAN_UNCHANGED, describeTransition } from '../../../src/cli/render/state';
import { planUnchangedAfterFeedback } from '../../../src/core/workflow/plan-unchanged';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, plan, planOutput, workflow } from './samples';

describe('an unchanged re-plan after feedback is said', function () {
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

  it('marks the state only when the planner returns the rejected plan again, and the CLI prints it', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() }, { output: planOutput() }, { output: planOutput('Fix Add and test it') });
    const orchestrator = orchestratorOver(ws.host, steps);
    const stream = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal));

    const first = await stream.until('WAIT_PLAN_APPROVAL');
    assert.equal(first.metadata.planUnchangedAfterFeedback, undefined, 'a first plan is not a re-plan');

    await orchestrator.approve(first.stateId, { type: 'REJECT', feedback: 'Also add a test' });
    const same = await stream.until('WAIT_PLAN_APPROVAL');
    assert.equal(steps.inputs.plan[1]?.feedback, 'Also add a test');
    assert.equal(same.metadata.planUnchangedAfterFeedback, true);
    assert.equal(ws.state(first.stateId).codingState.metadata.planUnchangedAfterFeedback, true, 'persisted in state.json');
    const plain = pc.createColors(false);
    const lines = describeTransition(stream.seen.at(-2) ?? null, same, plain);
    assert.ok(lines.includes('The planner returned the same plan (unchanged after your feedback).'), lines.join('\n'));
    assert.equal(PLAN_UNCHANGED, 'The planner returned the same plan (unchanged after your feedback).');

    await orchestrator.approve(first.stateId, { type: 'REJECT', feedback: 'Really, add a test' });
    const changed = await stream.until('WAIT_PLAN_APPROVAL');
    assert.equal(changed.plan?.summary, 'Fix Add and test it');
    assert.equal(changed.metadata.planUnchangedAfterFeedback, undefined, 'a changed plan carries no mark');
    assert.ok(!describeTransition(stream.seen.at(-2) ?? null, changed, plain).includes(PLAN_UNCHANGED));
  });

  it('compares spec and plan, and needs feedback to have been given', () => {
    const rejected = { spec: 'Spec: Fix Add', plan: plan(), feedback: 'more tests' };
    assert.equal(planUnchangedAfterFeedback(rejected, { spec: 'Spec: Fix Add', plan: plan() }), true);
    assert.equal(planUnchangedAfterFeedback(rejected, { spec: 'Spec: Fix Add', plan: plan('Other') }), false);
    assert.equal(planUnchangedAfterFeedback(rejected, { spec: 'Another spec', plan: plan() }), false);
    assert.equal(planUnchangedAfterFeedback({ ...rejected, feedback: null }, { spec: 'Spec: Fix Add', plan: plan() }), false);
    assert.equal(planUnchangedAfterFeedback({ spec: null, plan: null, feedback: 'x' }, { spec: 'Spec: Fix Add', plan: plan() }), false);
  });
});
