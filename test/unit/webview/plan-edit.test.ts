import { strict as assert } from 'node:assert';
import { finalizePlan, planProblems, removeStep, requireFixOf, updateStep } from '../../../webview-ui/src/state/plan-edit';
import { webviewMessageSchema } from '../../../src/shared/protocol';
import { SAMPLE_PLAN } from './fixtures';

describe('webview plan editing', () => {
  it('changes one step and leaves the original plan alone', () => {
    const edited = updateStep(SAMPLE_PLAN, 0, { description: 'Use division', actionType: 'REFACTOR' });
    assert.equal(edited.steps[0]?.description, 'Use division');
    assert.equal(edited.steps[0]?.actionType, 'REFACTOR');
    assert.equal(SAMPLE_PLAN.steps[0]?.description, 'Change * to /');
    assert.equal(updateStep(SAMPLE_PLAN, 9, { description: 'x' }), SAMPLE_PLAN);
  });

  it('renumbers the steps and narrows the affected files when a step is removed', () => {
    const edited = removeStep(SAMPLE_PLAN, 0);
    assert.deepEqual(
      edited.steps.map((s) => s.number),
      [1],
    );
    assert.equal(edited.steps[0]?.description, 'Add a test for zero');
    assert.deepEqual(edited.affectedFiles, ['tests/Calculator.Tests/CalculatorTests.cs']);
  });

  it('adds a file typed into a step to the affected files', () => {
    const edited = updateStep(SAMPLE_PLAN, 1, { filePath: 'src/Calculator/Guard.cs' });
    assert.deepEqual(edited.affectedFiles, ['src/Calculator/Calculator.cs', 'src/Calculator/Guard.cs']);
  });

  it('drops a known failure the person wants fixed, and the field with the last one', () => {
    const plan = { ...SAMPLE_PLAN, knownFailures: ['A.Slow', 'A.Flaky'] };
    assert.deepEqual(requireFixOf(plan, 'A.Slow').knownFailures, ['A.Flaky']);
    const none = requireFixOf(requireFixOf(plan, 'A.Slow'), 'A.Flaky');
    assert.equal('knownFailures' in none, false);
    assert.equal(webviewMessageSchema.safeParse({ type: 'approvePlan', runId: 'r1', editedPlan: plan }).success, true);
  });

  it('reports what blocks approval', () => {
    assert.deepEqual(planProblems(SAMPLE_PLAN), []);
    assert.equal(planProblems(removeStep(removeStep(SAMPLE_PLAN, 0), 0)).length, 1);
    assert.match(planProblems(updateStep(SAMPLE_PLAN, 1, { description: '   ' })).join(), /Step 2 has no description/);
  });

  it('produces an edited plan the extension accepts', () => {
    const edited = finalizePlan(updateStep(removeStep(SAMPLE_PLAN, 1), 0, { description: '  Divide, do not multiply  ' }));
    assert.equal(edited.steps[0]?.description, 'Divide, do not multiply');
    const parsed = webviewMessageSchema.safeParse({ type: 'approvePlan', runId: 'run-1', editedPlan: edited });
    assert.equal(parsed.success, true);
  });
});
