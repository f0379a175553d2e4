// The panel's messages are input, not trusted code: webviewMessageSchema refuses wrong types and
// strings or lists past their bounds, for every field that carries text from the webview.

import assert from 'node:assert/strict';
import { PANEL_LIMITS, webviewMessageSchema } from '../../../src/shared/protocol';

const RUN = '20261124-060000-abcdef';
const plan = {
  summary: 'Fix Add',
  steps: [{ number: 1, description: 'Return a + b', actionType: 'MODIFY', filePath: 'src/Calc.cs', rationale: 'Add subtracts' }],
  affectedFiles: ['src/Calc.cs'],
  complexity: 'LOW',
};

/** The schema's verdict as `ok` or the first issue's `path: code`, so a test names exactly why a message was refused. */
function verdict(message: unknown): string {
  const parsed = webviewMessageSchema.safeParse(message);
  if (parsed.success) return 'ok';
  const issue = parsed.error.issues[0];
  return `${issue.path.join('.')}: ${issue.code}`;
}

describe('panel message schema', () => {
  it('accepts each kind of well-formed message', () => {
    for (const message of [
      { type: 'ready' },
      { type: 'startRun', request: 'Fix the failing test' },
      { type: 'approvePlan', runId: RUN, editedPlan: { ...plan, knownFailures: ['Calc.Tests.Flaky'] } },
      { type: 'rejectPlan', runId: RUN, feedback: 'Smaller steps' },
      { type: 'openDiff', runId: RUN, filePath: 'src/Calc.cs' },
      { type: 'setFileDecision', runId: RUN, filePath: 'src/Calc.cs', accepted: false, reason: 'no' },
      { type: 'continueRun', runId: RUN, guidance: '', additionalIterations: 2 },
      { type: 'openFile', filePath: 'src/Calc.cs', line: 3, column: 0 },
    ]) {
      assert.equal(verdict(message), 'ok', JSON.stringify(message));
    }
  });

  it('refuses wrong types, unknown kinds and non-objects', () => {
    assert.equal(verdict({ type: 'startRun', request: 42 }), 'request: invalid_type');
    assert.equal(verdict({ type: 'approvePlan', runId: 7 }), 'runId: invalid_type');
    assert.equal(verdict({ type: 'setFileDecision', runId: RUN, filePath: 'a.cs', accepted: 'yes' }), 'accepted: invalid_type');
    assert.equal(verdict({ type: 'openFile', filePath: 'a.cs', line: 1.5, column: 0 }), 'line: invalid_type');
    assert.equal(verdict({ type: 'openFile', filePath: 'a.cs', line: -1, column: 0 }), 'line: too_small');
    assert.equal(verdict({ type: 'continueRun', runId: RUN, guidance: '', additionalIterations: 51 }), 'additionalIterations: too_big');
    assert.equal(
      verdict({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, complexity: 'HUGE' } }),
      'editedPlan.complexity: invalid_value',
    );
    assert.equal(verdict({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, steps: [] } }), 'editedPlan.steps: too_small');
    assert.equal(verdict({ type: 'deleteEverything' }), 'type: invalid_union');
    assert.equal(verdict('ready'), ': invalid_type');
    assert.equal(verdict(null), ': invalid_type');
  });

  it('refuses every string one character past its bound, and accepts it at the bound', () => {
    const long = (n: number): string => 'x'.repeat(n);
    const cases: Array<[string, (s: string) => unknown, number]> = [
      ['request', (s) => ({ type: 'startRun', request: s }), PANEL_LIMITS.text],
      ['runId', (s) => ({ type: 'cancelRun', runId: s }), PANEL_LIMITS.runId],
      ['feedback', (s) => ({ type: 'rejectPlan', runId: RUN, feedback: s }), PANEL_LIMITS.text],
      ['feedback', (s) => ({ type: 'rejectDiffs', runId: RUN, feedback: s }), PANEL_LIMITS.text],
      ['filePath', (s) => ({ type: 'openDiff', runId: RUN, filePath: s }), PANEL_LIMITS.path],
      ['reason', (s) => ({ type: 'setFileDecision', runId: RUN, filePath: 'a.cs', accepted: false, reason: s }), PANEL_LIMITS.reason],
      ['guidance', (s) => ({ type: 'continueRun', runId: RUN, guidance: s, additionalIterations: 1 }), PANEL_LIMITS.text],
      ['editedPlan.summary', (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, summary: s } }), PANEL_LIMITS.text],
      [
        'editedPlan.steps.0.description',
        (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, steps: [{ ...plan.steps[0], description: s }] } }),
        PANEL_LIMITS.text,
      ],
      [
        'editedPlan.steps.0.rationale',
        (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, steps: [{ ...plan.steps[0], rationale: s }] } }),
        PANEL_LIMITS.text,
      ],
      [
        'editedPlan.steps.0.filePath',
        (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, steps: [{ ...plan.steps[0], filePath: s }] } }),
        PANEL_LIMITS.path,
      ],
      [
        'editedPlan.affectedFiles.0',
        (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, affectedFiles: [s] } }),
        PANEL_LIMITS.path,
      ],
      [
        'editedPlan.knownFailures.0',
        (s) => ({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, knownFailures: [s] } }),
        PANEL_LIMITS.testName,
      ],
    ];
    for (const [field, make, max] of cases) {
      assert.equal(verdict(make(long(max))), 'ok', `${field} at ${max}`);
      assert.equal(verdict(make(long(max + 1))), `${field}: too_big`, `${field} at ${max + 1}`);
    }
    assert.deepEqual(
      {
        runId: PANEL_LIMITS.runId,
        path: PANEL_LIMITS.path,
        text: PANEL_LIMITS.text,
        reason: PANEL_LIMITS.reason,
        testName: PANEL_LIMITS.testName,
      },
      { runId: 200, path: 4000, text: 20_000, reason: 4000, testName: 2000 },
    );
  });

  it('refuses lists past their bounds', () => {
    const steps = Array.from({ length: PANEL_LIMITS.planSteps + 1 }, (_, i) => ({ ...plan.steps[0], number: i + 1 }));
    assert.equal(verdict({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, steps } }), 'editedPlan.steps: too_big');
    const files = Array.from({ length: PANEL_LIMITS.planFiles + 1 }, (_, i) => `f${i}.cs`);
    assert.equal(
      verdict({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, affectedFiles: files } }),
      'editedPlan.affectedFiles: too_big',
    );
    const tests = Array.from({ length: PANEL_LIMITS.knownFailures + 1 }, (_, i) => `T${i}`);
    assert.equal(
      verdict({ type: 'approvePlan', runId: RUN, editedPlan: { ...plan, knownFailures: tests } }),
      'editedPlan.knownFailures: too_big',
    );
    assert.deepEqual(
      { steps: PANEL_LIMITS.planSteps, files: PANEL_LIMITS.planFiles, tests: PANEL_LIMITS.knownFailures },
      { steps: 1000, files: 5000, tests: 500 },
    );
  });
});
