// The transitions that carry meaning between steps: what each step is told (its input) after a
// person's decision or a failed validation. Real statechart, fake steps.

import { strict as assert } from 'node:assert';
import { DEFAULT_MAX_ITERATIONS } from '../../../src/core/model';
import { splitHunks } from '../../../src/core/workspace/diff';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { CALC_AFTER, CALC_BEFORE, baseline, codeOutput, failing, passing, plan, planOutput } from './samples';

/** Baseline and a first plan, the usual start of every run. */
function started(steps = new FakeSteps()): FakeSteps {
  return steps.script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
}

describe('run machine: transitions', function () {
  this.timeout(10_000);
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  it('a rejected plan is made again, and the planner is told why and what it proposed', async () => {
    const steps = started().script('plan', { output: planOutput('Second plan') });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'REJECT', feedback: 'Smaller steps, please' });
    await run.reach('WAIT_PLAN_APPROVAL', 2);
    assert.deepEqual(run.nodes, ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'PLAN', 'WAIT_PLAN_APPROVAL']);
    assert.equal(steps.inputs.plan[0].feedback, null);
    assert.equal(steps.inputs.plan[1].feedback, 'Smaller steps, please');
    assert.deepEqual(steps.inputs.plan[1].previousPlan, plan());
    assert.deepEqual(steps.inputs.plan[1].baseline, baseline());
    assert.equal(run.snapshot.context.plan?.summary, 'Second plan');
    assert.equal(run.snapshot.context.planFeedback, null, 'feedback is spent once a new plan arrives');
  });

  it('the coder works from the plan as the person edited it', async () => {
    const steps = started();
    run = new MachineRun(steps);
    const edited = plan('Edited by a person');
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE', editedPlan: edited });
    await run.reach('CODE');
    assert.deepEqual(steps.inputs.code[0].plan, edited);
    assert.equal(steps.inputs.code[0].iteration, 1);
    assert.equal(steps.inputs.code[0].errorContext, null);
    assert.equal(steps.inputs.code[0].spec, 'Spec: Fix Add');
  });

  it('approving the plan as is hands the coder the planned plan', async () => {
    const steps = started();
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
    await run.reach('CODE');
    assert.deepEqual(steps.inputs.code[0].plan, plan());
  });

  it('accepting some hunks validates only what was accepted, and the coder later hears what was rejected', async () => {
    const steps = started()
      .script('code', { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: failing(1) });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
    assert.equal(splitHunks(codeOutput().edits[0].diffText).length, 2);
    await run.sendAt('WAIT_DIFF_APPROVAL', {
      type: 'APPROVE',
      files: [
        { filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1], reason: 'Leave Mul alone' },
        { filePath: 'src/Notes.md', accepted: false, reason: 'No notes' },
      ],
    });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    const validated = steps.inputs.validate[0];
    assert.deepEqual(
      validated.edits.map((e) => e.filePath),
      ['src/Calc.cs'],
    );
    assert.equal(validated.edits[0].newContent, CALC_BEFORE.replace('a - b', 'a + b'), 'only the first hunk is applied');
    assert.notEqual(validated.edits[0].newContent, CALC_AFTER);
    assert.match(validated.rejections ?? '', /src\/Calc\.cs: hunk 2 .*Leave Mul alone/);
    assert.match(validated.rejections ?? '', /src\/Notes\.md: the whole file was rejected.*No notes/);
    const retry = steps.inputs.code[1];
    assert.equal(retry.iteration, 2);
    assert.match(retry.errorContext?.rejections ?? '', /hunk 2/, 'the coder is told what was rejected');
    assert.match(retry.errorContext?.rejections ?? '', /src\/Notes\.md/);
  });

  it('approving every diff tells nobody that anything was rejected', async () => {
    const steps = started().script('code', { output: codeOutput() }).script('validate', { output: passing() });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' });
    await run.reach('SUCCESS');
    assert.deepEqual(steps.inputs.validate[0].edits, codeOutput().edits);
    assert.equal(steps.inputs.validate[0].rejections, null);
    assert.equal(run.snapshot.context.rejections, null);
  });

  it('rejecting the diffs sends the coder back with the feedback, in the same iteration (a rejection uses none)', async () => {
    const steps = started().script('code', { output: codeOutput() }, { output: codeOutput() });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'Do not touch Mul' });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    assert.deepEqual(run.nodes.slice(-3), ['WAIT_DIFF_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL']);
    const retry = steps.inputs.code[1];
    assert.equal(retry.iteration, 1);
    assert.equal(retry.errorContext?.guidance, 'Do not touch Mul');
    assert.match(retry.errorContext?.text ?? '', /Do not touch Mul/);
    assert.match(retry.errorContext?.rejections ?? '', /src\/Calc\.cs.*\n.*src\/Notes\.md/);
    assert.equal(steps.calls('validate'), 0, 'nothing rejected is validated');
  });

  it('rejecting every file one by one is a rejection, with the reasons given', async () => {
    const steps = started().script('code', { output: codeOutput() });
    run = new MachineRun(steps);
    await run.sendAt('WAIT_PLAN_APPROVAL', { type: 'APPROVE' });
    await run.sendAt('WAIT_DIFF_APPROVAL', {
      type: 'APPROVE',
      files: [
        { filePath: 'src/Calc.cs', accepted: false, reason: 'wrong' },
        { filePath: 'src/Notes.md', accepted: false },
      ],
    });
    await run.reach('CODE', 2);
    assert.equal(steps.inputs.code[1].errorContext?.guidance, 'wrong');
    assert.deepEqual(run.snapshot.context.approvedEdits, []);
  });

  it('a failed validation with iterations left goes back to the coder with the error context', async () => {
    const steps = started()
      .script('code', { output: codeOutput() })
      .script('validate', { output: failing(1) });
    run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'never' } });
    await run.reach('CODE', 2);
    assert.deepEqual(run.nodes, ['INIT', 'PLAN', 'CODE', 'VALIDATE', 'DECIDE', 'CODE']);
    const retry = steps.inputs.code[1];
    assert.equal(retry.iteration, 2);
    assert.equal(retry.errorContext?.text, failing(1).errorContext?.text);
    assert.deepEqual(retry.errorContext?.newTestFailures, failing(1).errorContext?.newTestFailures);
    assert.deepEqual(
      run.snapshot.context.iterations.map((r) => [r.iteration, r.outcome, r.files.length]),
      [[1, 'tests failed', 2]],
    );
  });

  it('a failure at the last iteration escalates, writes the hand-off, and waits for a person', async () => {
    const steps = started()
      .script('code', { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: failing(1) }, { output: failing(2) })
      .script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
    run = new MachineRun(steps, { maxIterations: 2, approval: { plan: 'never', diffs: 'never' } });
    await run.reach('WAIT_HUMAN');
    assert.deepEqual(run.nodes.slice(-3), ['DECIDE', 'ESCALATE', 'WAIT_HUMAN']);
    const handoff = steps.inputs.writeHandoff[0];
    assert.equal(handoff.state.currentNode, 'ESCALATE');
    assert.equal(handoff.iterations.length, 2);
    assert.match(handoff.reason, /2 of 2/);
    assert.equal(run.snapshot.context.handoffPath, '/ws/HANDOFF.md');
    assert.deepEqual(
      steps.inputs.decide.map((d) => [d.iteration, d.maxIterations, d.passed]),
      [
        [1, 2, false],
        [2, 2, false],
      ],
    );
  });

  it('CONTINUE gives the coder more iterations and the person’s guidance', async () => {
    const steps = started()
      .script('code', { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: failing(1) })
      .script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
    run = new MachineRun(steps, { maxIterations: 1, approval: { plan: 'never', diffs: 'never' } });
    await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'Look at Mul', additionalIterations: 3 });
    await run.reach('CODE', 2);
    assert.equal(run.snapshot.context.maxIterations, 4);
    const retry = steps.inputs.code[1];
    assert.equal(retry.iteration, 2);
    assert.equal(retry.errorContext?.guidance, 'Look at Mul');
    assert.equal(retry.errorContext?.text, failing(1).errorContext?.text, 'what failed is still said');
  });

  for (const bad of [0, -2, Number.NaN, 1.7]) {
    it(`CONTINUE with ${bad} more iterations still allows at least one`, async () => {
      const steps = started()
        .script('code', { output: codeOutput() })
        .script('validate', { output: failing(1) });
      steps.script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
      run = new MachineRun(steps, { maxIterations: 1, approval: { plan: 'never', diffs: 'never' } });
      await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'again', additionalIterations: bad });
      await run.reach('CODE', 2);
      assert.equal(run.snapshot.context.maxIterations, 2);
    });
  }

  it('STOP at WAIT_HUMAN ends the run CANCELLED', async () => {
    const steps = started()
      .script('code', { output: codeOutput() })
      .script('validate', { output: failing(1) });
    steps.script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
    run = new MachineRun(steps, { maxIterations: 1, approval: { plan: 'never', diffs: 'never' } });
    await run.sendAt('WAIT_HUMAN', { type: 'STOP' });
    await run.reach('CANCELLED');
    assert.equal(run.snapshot.status, 'done');
  });

  it('passing on the first iteration succeeds, with usage added up', async () => {
    const steps = started().script('code', { output: codeOutput() }).script('validate', { output: passing() });
    run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'never' } });
    await run.reach('SUCCESS');
    assert.deepEqual(run.nodes, ['INIT', 'PLAN', 'CODE', 'VALIDATE', 'DECIDE', 'SUCCESS']);
    assert.deepEqual(run.snapshot.context.usage, {
      inputTokens: 150,
      outputTokens: 30,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.002,
    });
    assert.deepEqual(run.snapshot.context.baseline, baseline());
    assert.equal(run.snapshot.context.passed, true);
  });

  it(`allows ${DEFAULT_MAX_ITERATIONS} iterations by default before escalating`, async () => {
    assert.equal(DEFAULT_MAX_ITERATIONS, 5);
    const steps = started();
    for (let i = 1; i <= DEFAULT_MAX_ITERATIONS; i++)
      steps.script('code', { output: codeOutput() }).script('validate', { output: failing(i) });
    steps.script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
    run = new MachineRun(steps, { approval: { plan: 'never', diffs: 'never' } });
    await run.reach('WAIT_HUMAN');
    assert.equal(steps.calls('code'), 5);
    assert.deepEqual(
      steps.inputs.code.map((c) => c.iteration),
      [1, 2, 3, 4, 5],
    );
    assert.equal(run.snapshot.context.iterationCount, 5);
  });
});
