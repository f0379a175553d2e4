// The steering trail the panel shows: each plan version with the feedback that made it ("unchanged"
// when it is), each proposal with the coder's summary, and the person's guidance at an escalation,
// kept after Continue.

import { strict as assert } from 'node:assert';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, failing, plan, planOutput } from './samples';

describe('the steering trail', () => {
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  it('keeps each plan version with its feedback and what it changed, marks the unchanged one, and the person’s edit', async () => {
    const withTest = planOutput('Fix Add and test it');
    withTest.plan.steps.push({
      number: 2,
      description: 'Test  Add',
      actionType: 'CREATE',
      filePath: 'tests/CalcTests.cs',
      rationale: 'cover',
    });
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() }, { output: planOutput() }, { output: withTest });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'REJECT', feedback: 'Also add a test' });
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'REJECT', feedback: 'Really, add a test' }, 2);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE', editedPlan: plan('My own plan') }, 3);
    await run.reach('CODE');
    const versions = run.snapshot.context.planVersions?.map((v) => [v.version, v.summary, v.feedback, v.unchanged, v.by]);
    assert.deepEqual(versions, [
      [1, 'Fix Add', null, false, 'planner'],
      [2, 'Fix Add', 'Also add a test', true, 'planner'],
      [3, 'Fix Add and test it', 'Really, add a test', false, 'planner'],
      [4, 'My own plan', 'Edited by the person at the plan gate', false, 'person'],
    ]);
    assert.deepEqual(
      run.snapshot.context.planVersions?.map((v) => v.changes),
      [
        undefined,
        { added: [], removed: [] },
        { added: ['CREATE tests/CalcTests.cs: Test Add'], removed: [] },
        { added: [], removed: ['CREATE tests/CalcTests.cs: Test Add'] },
      ],
    );
    const state = toCodingState(run.snapshot.context, 'CODE', 'now');
    assert.equal((state.metadata.planVersions as unknown[]).length, 4, 'in the public state');
  });

  it('keeps each proposal’s coder summary, and the guidance given at an escalation after Continue', async () => {
    const steps = new FakeSteps(true)
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script(
        'code',
        { output: codeOutput(undefined, 'First try: swap the operator') },
        { output: codeOutput(undefined, 'Second try: fix Mul too') },
        { output: codeOutput(undefined, 'Third') },
      )
      .script('validate', { output: failing(1) })
      .script('writeHandoff', { output: { handoffPath: 'HANDOFF.md' } });
    run = new MachineRun(steps, { maxIterations: 1, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'Not like that' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 2);
    await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'Look at Mul, not Add', additionalIterations: 1 });
    await run.reach('CODE', 3);
    const context = run.snapshot.context;
    assert.deepEqual(
      context.attempts?.map((a) => [a.iteration, a.outcome, a.summary, a.feedback]),
      [
        [1, 'rejected', 'First try: swap the operator', 'Not like that'],
        [1, 'applied', 'Second try: fix Mul too', undefined],
      ],
    );
    assert.deepEqual(context.guidanceGiven, [{ iteration: 2, guidance: 'Look at Mul, not Add' }]);
    assert.deepEqual(toCodingState(context, 'CODE', 'now').metadata.guidanceGiven, [{ iteration: 2, guidance: 'Look at Mul, not Add' }]);
  });

  it('records the approval gates the run stopped at, each once, so the timeline ticks no skipped gate', async () => {
    const steps = new FakeSteps(true)
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: failing(1) }, { output: failing(1) });
    run = new MachineRun(steps, { maxIterations: 2, approval: { plan: 'never', diffs: 'always' } });
    await run.reach('CODE');
    assert.deepEqual(run.snapshot.context.gatesReached, [], 'the plan gate was skipped');
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 2);
    await run.reach('VALIDATE', 2);
    assert.deepEqual(toCodingState(run.snapshot.context, 'VALIDATE', 'now').metadata.gatesReached, ['WAIT_DIFF_APPROVAL']);
  });
});
