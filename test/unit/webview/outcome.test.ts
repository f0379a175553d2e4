// The outcome at the top of the run view: how the run ended and the tests before → after, by name.

import { strict as assert } from 'node:assert';
import { outcomeView } from '../../../webview-ui/src/state/outcome';
import { makeRun } from './fixtures';

const TESTS = { success: true, total: 5, passed: 5, failed: 0, skipped: 0, failures: [], durationMs: 1 };
const BASELINE = {
  capturedAt: 'then',
  build: { success: true, errors: [], warnings: [], durationMs: 1 },
  test: { ...TESTS, success: false, passed: 4, failed: 1, failures: [{ testName: 'CalcTests.Divide', message: 'x', stackTrace: '' }] },
};

describe('webview outcome', () => {
  it('is absent while the run works', () => {
    assert.equal(outcomeView(makeRun({ currentNode: 'VALIDATE' })), null);
  });

  it('says a success with the fixed test by name, against the baseline', () => {
    const view = outcomeView(
      makeRun({
        currentNode: 'SUCCESS',
        iterationCount: 1,
        baseline: BASELINE,
        testResult: TESTS,
        metadata: { fixedTests: ['CalcTests.Divide'] },
      }),
    );
    assert.deepEqual(view, {
      headline: 'Succeeded in 1 iteration: the build is clean and the tests pass',
      tone: 'ok',
      tests: 'Failing tests 1 → 0',
      fixed: ['CalcTests.Divide'],
      stillFailing: [],
      newlyFailing: [],
    });
  });

  it('a reverted run reads Reverted, not Succeeded', () => {
    const view = outcomeView(makeRun({ currentNode: 'SUCCESS', baseline: BASELINE, testResult: TESTS, metadata: { revertedAt: 'now' } }));
    assert.equal(view?.headline, 'Reverted: every file the run changed has its original content back');
    assert.equal(view?.tone, 'neutral');
  });

  it('splits what still fails from what the run broke', () => {
    const failures = [
      { testName: 'CalcTests.Divide', message: 'x', stackTrace: '', preExisting: true },
      { testName: 'CalcTests.Add', message: 'y', stackTrace: '', preExisting: false },
    ];
    const view = outcomeView(
      makeRun({
        currentNode: 'WAIT_HUMAN',
        iterationCount: 2,
        baseline: BASELINE,
        testResult: { ...TESTS, success: false, passed: 3, failed: 2, failures },
      }),
    );
    assert.equal(view?.headline, 'Needs you after 2 iterations');
    assert.equal(view?.tests, 'Failing tests 1 → 2');
    assert.deepEqual(view?.stillFailing, ['CalcTests.Divide']);
    assert.deepEqual(view?.newlyFailing, ['CalcTests.Add']);
  });
});
