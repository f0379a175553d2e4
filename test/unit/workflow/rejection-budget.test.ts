// Rejected diffs count against the iteration budget: a person (or a script) rejecting every
// proposal cannot keep the coder going for ever; the run escalates once no iteration is left.

import { strict as assert } from 'node:assert';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, passing, planOutput } from './samples';

describe('rejected diffs use iterations', () => {
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  function steps(): FakeSteps {
    return new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput() }, { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: passing() })
      .script('writeHandoff', { output: { handoffPath: 'HANDOFF.md' } });
  }

  it('each rejection uses one; rejecting every proposal escalates at the budget, with the reason', async () => {
    const fake = steps();
    run = new MachineRun(fake, { maxIterations: 2, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'No' });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    assert.equal(run.snapshot.context.iterationCount, 2);
    assert.deepEqual(fake.inputs.code.map((i) => i.iteration), [1, 2]);
    // Rejecting file by file (APPROVE with every file rejected) is a rejection too.
    const files = codeOutput().edits.map((e) => ({ filePath: e.filePath, accepted: false, reason: 'Still no' }));
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'APPROVE', files }, 2);
    await run.reach('WAIT_HUMAN');
    assert.deepEqual(run.nodes, ['INIT', 'PLAN', 'CODE', 'WAIT_DIFF_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'ESCALATE', 'WAIT_HUMAN']);
    assert.equal(fake.calls('code'), 2);
    assert.equal(fake.calls('validate'), 0);
    assert.equal(
      fake.inputs.writeHandoff[0]?.reason,
      'The person rejected the proposed changes of iteration 2 of 2; no iteration is left (each rejected proposal uses one).',
    );
    assert.equal(run.snapshot.context.iterationCount, 2);
  });

  it('Continue after that gives the coder another iteration with the person’s guidance', async () => {
    const fake = steps();
    run = new MachineRun(fake, { maxIterations: 1, approval: { plan: 'never', diffs: 'always' } });
    await run.sendAt('WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: 'No' });
    await run.sendAt('WAIT_HUMAN', { type: 'CONTINUE', guidance: 'Smaller change', additionalIterations: 1 });
    await run.reach('WAIT_DIFF_APPROVAL', 2);
    assert.equal(run.snapshot.context.iterationCount, 2);
    assert.equal(run.snapshot.context.maxIterations, 2);
    assert.equal(fake.inputs.code[1]?.errorContext?.guidance, 'Smaller change');
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
