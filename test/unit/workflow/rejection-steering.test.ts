// A rejection is steering, not a failed attempt (contracts.md, "Rejections"): the coder proposes
// again in the same iteration with the person's words, nothing is validated, no iteration is used;
// after REJECTIONS_IN_A_ROW_LIMIT rejections in a row the person is asked, with the reasons kept.

import { strict as assert } from 'node:assert';
import { REJECTIONS_IN_A_ROW_LIMIT } from '../../../src/core/workflow/rejection';
import type { ValidateOutput } from '../../../src/core/workflow/run-context';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, failing, passing, planOutput } from './samples';

describe('rejected diffs are steering', () => {
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  function steps(codeRuns = 4, validations: ValidateOutput[] = [passing()]): FakeSteps {
    return new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', ...Array.from({ length: codeRuns }, () => ({ output: codeOutput() })))
      .script('validate', ...validations.map((output) => ({ output })))
      .script('writeHandoff', { output: { handoffPath: 'HANDOFF.md' } });
  }

  it('the limit is three rejections in a row', () => {
    assert.equal(REJECTIONS_IN_A_ROW_LIMIT, 3);
  });

  it('a rejection on the last iteration goes back to the coder with the reason, without validating or using an iteration', async () => {
    const fake = steps();
    run = new MachineRun(fake, { maxIterations: 1, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'Keep the public API' });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    assert.deepEqual(run.nodes, ['INIT', 'PLAN', 'CODE', 'WAIT_DIFF_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL']);
    assert.deepEqual(
      fake.inputs.code.map((i) => i.iteration),
      [1, 1],
    );
    assert.equal(run.snapshot.context.iterationCount, 1);
    assert.equal(run.snapshot.context.maxIterations, 1);
    assert.equal(fake.calls('validate'), 0);
    const told = fake.inputs.code[1]?.errorContext;
    assert.equal(told?.guidance, 'Keep the public API');
    assert.equal(told?.text, 'The person rejected all of your proposed changes (nothing was applied). Their feedback: Keep the public API');
    // The next proposal is accepted and validated: the run goes on to SUCCESS in its one iteration.
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 2);
    await run.reach('SUCCESS');
    assert.equal(fake.calls('validate'), 1);
    assert.equal(fake.inputs.validate[0]?.iteration, 1);
  });

  it('rejecting every file one by one is a rejection too; reasons per file reach the coder, none are invented', async () => {
    const fake = steps();
    run = new MachineRun(fake, { maxIterations: 2, approval: { plan: 'never', diffs: 'always' } });
    const files = codeOutput().edits.map((e) => ({ filePath: e.filePath, accepted: false }));
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE', files });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    const told = fake.inputs.code[1]?.errorContext;
    assert.equal(told?.text, 'The person rejected all of your proposed changes (nothing was applied) without giving a reason.');
    assert.equal(told?.guidance, undefined);
    assert.equal(run.snapshot.context.attempts?.at(-1)?.feedback, undefined);
    assert.equal(fake.inputs.code[1]?.iteration, 1);
  });

  it('keeps what the last validation said when a later proposal is rejected', async () => {
    const fake = steps(4, [failing(1), passing()]);
    run = new MachineRun(fake, { maxIterations: 2, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'Not that way' }, 2);
    await run.reach('WAIT_DIFF_APPROVAL', 3);
    const told = fake.inputs.code[2]?.errorContext;
    const validated = failing(1).errorContext;
    assert.equal(
      told?.text,
      `The person rejected all of your proposed changes (nothing was applied). Their feedback: Not that way\n\n${validated?.text}`,
    );
    assert.deepEqual(told?.newTestFailures, validated?.newTestFailures);
    assert.deepEqual(
      fake.inputs.code.map((i) => i.iteration),
      [1, 2, 2],
    );
  });

  it('after three rejections in a row the person is asked, and every reason is kept for the coder', async () => {
    const fake = steps();
    run = new MachineRun(fake, { maxIterations: 5, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'one' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'two' }, 2);
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'three' }, 3);
    await run.reach('WAIT_HUMAN');
    assert.deepEqual(run.nodes.slice(-3), ['WAIT_DIFF_APPROVAL', 'ESCALATE', 'WAIT_HUMAN']);
    assert.equal(fake.calls('code'), 3);
    assert.equal(fake.calls('validate'), 0);
    assert.equal(run.snapshot.context.iterationCount, 1);
    assert.equal(
      fake.inputs.writeHandoff[0]?.reason,
      'The person rejected 3 proposals in a row in iteration 1 of 5 (rejections use no iteration); the coder waits for guidance, or stop.',
    );
    // Continue: the coder hears the guidance and all three reasons; the count starts again.
    await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'Smaller change', additionalIterations: 1 });
    await run.reach('WAIT_DIFF_APPROVAL', 4);
    const told = fake.inputs.code[3]?.errorContext;
    assert.equal(told?.guidance, 'Smaller change');
    assert.match(told?.text ?? '', /Their feedback: three\n\n.*Their feedback: two\n\n.*Their feedback: one$/);
    assert.equal(run.snapshot.context.rejectionsInARow, 0);
  });

  it('an accepted proposal resets the count', async () => {
    const fake = steps(5, [failing(1), passing()]);
    run = new MachineRun(fake, { maxIterations: 3, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'one' });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'two' }, 2);
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 3);
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'three' }, 4);
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 5);
    await run.reach('SUCCESS');
    assert.deepEqual(
      fake.inputs.code.map((i) => i.iteration),
      [1, 1, 1, 2, 2],
    );
  });

  it('with diff approval "first", a proposal after a rejection is still shown to the person', async () => {
    run = new MachineRun(steps(), { maxIterations: 3, approval: { plan: 'never', diffs: 'first' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'No' });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE' }, 2);
    await run.reach('SUCCESS');
    assert.equal(run.nodes.filter((n) => n === 'WAIT_DIFF_APPROVAL').length, 2);
  });
});
