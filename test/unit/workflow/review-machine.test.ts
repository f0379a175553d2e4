// The REVIEW state (contracts.md, Reviewer): after DECIDE finds the tests passing, a required review
// that fails sends the run back to the coder as the next iteration, with its issues; at the last
// iteration it escalates; a passing one ends in SUCCESS with the review in the state; off skips it.

import { strict as assert } from 'node:assert';
import { EMPTY_USAGE } from '../../../src/core/model';
import type { ReviewMode, ReviewResult } from '../../../src/core/model';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { reviewErrorContext } from '../../../src/core/workflow/review-step';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, passing, planOutput } from './samples';

const DEBUG_ISSUE = {
  severity: 'major' as const,
  file: 'src/Calc.cs',
  line: 7,
  description: 'Console.WriteLine debug output left in Add',
  suggestedFix: 'Remove the Console.WriteLine call',
};
const FAILED: ReviewResult = { score: 5, criticalIssues: [DEBUG_ISSUE], suggestions: [], pass: false };
const PASSED: ReviewResult = { score: 9, criticalIssues: [], suggestions: ['Name the constant'], pass: true };

function reviewedRun(mode: ReviewMode, maxIterations = 5): { steps: FakeSteps; run: MachineRun } {
  const steps = new FakeSteps();
  const run = new MachineRun(steps, { maxIterations, approval: { plan: 'never', diffs: 'never' }, review: { mode, threshold: 8 } });
  steps.script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
  return { steps, run };
}

describe('run machine: the REVIEW state', function () {
  this.timeout(10_000);
  let run: MachineRun | undefined;
  afterEach(() => run?.stop());

  it('a failing required review goes back to the coder as the next iteration, with its issues; a passing one ends in SUCCESS', async () => {
    const held = reviewedRun('required');
    run = held.run;
    const { steps } = held;
    steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    await run.reach('REVIEW');
    assert.equal(steps.inputs.review[0].iteration, 1);
    steps.script('review', {
      output: { verdict: 'retry', review: FAILED, errorContext: reviewErrorContext(FAILED, 1), usage: EMPTY_USAGE },
    });
    await run.reach('CODE', 2);
    assert.equal(run.snapshot.context.iterationCount, 2, 'the review used an iteration');
    const coderInput = steps.inputs.code[1];
    assert.equal(coderInput.errorContext?.source, 'review');
    assert.match(coderInput.errorContext?.text ?? '', /\[major\] src\/Calc\.cs:7: Console\.WriteLine debug output left in Add/);
    steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    await run.reach('REVIEW', 2);
    steps.script('review', { output: { verdict: 'pass', review: PASSED, errorContext: null, usage: EMPTY_USAGE } });
    await run.reach('SUCCESS');
    assert.deepEqual(run.nodes.slice(-4), ['VALIDATE', 'DECIDE', 'REVIEW', 'SUCCESS']);
    const state = toCodingState(run.snapshot.context, 'SUCCESS', 'now');
    assert.deepEqual(state.review, PASSED);
    assert.equal(state.iterationCount, 2);
    assert.deepEqual(
      (state.metadata.iterations as Array<{ outcome: string }>).map((r) => r.outcome),
      ['review failed', 'passed'],
    );
  });

  it('a failing review at the last iteration escalates, saying the review still fails', async () => {
    const held = reviewedRun('required', 1);
    run = held.run;
    held.steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    held.steps.script('review', {
      output: { verdict: 'escalate', review: FAILED, errorContext: reviewErrorContext(FAILED, 1), usage: EMPTY_USAGE },
    });
    held.steps.script('writeHandoff', { output: { handoffPath: '/ws/HANDOFF.md' } });
    await run.reach('WAIT_HUMAN');
    assert.match(held.steps.inputs.writeHandoff[0].reason, /^The code review still fails \(score 5\/10\) after 1 of 1 iterations\./);
  });

  it('off: DECIDE goes straight to SUCCESS and no review runs', async () => {
    const held = reviewedRun('off');
    run = held.run;
    held.steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    await run.reach('SUCCESS');
    assert.equal(held.steps.calls('review'), 0);
    assert.ok(!run.nodes.includes('REVIEW'));
    assert.equal(toCodingState(run.snapshot.context, 'SUCCESS', 'now').review, undefined);
  });

  it('CANCEL at REVIEW ends CANCELLED and stops the reviewer', async () => {
    const held = reviewedRun('advisory');
    run = held.run;
    held.steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    await run.reach('REVIEW');
    run.actor.send({ type: 'CANCEL' });
    await run.reach('CANCELLED');
    const deadline = Date.now() + 2000;
    while (!held.steps.aborted.includes('review') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
    assert.ok(held.steps.aborted.includes('review'));
  });

  it('a request for help during REVIEW escalates to a person', async () => {
    const held = reviewedRun('required');
    run = held.run;
    held.steps.script('code', { output: codeOutput() }).script('validate', { output: passing() });
    await run.reach('REVIEW');
    run.actor.send({ type: 'REQUEST_HELP', reason: 'Budget reached' });
    await run.reach('ESCALATE');
    assert.equal(run.snapshot.context.helpRequest?.from, 'REVIEW');
  });
});
