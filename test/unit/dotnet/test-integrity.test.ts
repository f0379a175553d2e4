// A test that ran in the baseline and does not run afterwards (skipped, filtered out, removed) counts
// as failing, named as such; a TRX result `Aborted` is a failure, not a pass or a skip.

import assert from 'node:assert/strict';
import { MISSING_AFTER_CHANGE, SKIPPED_AFTER_CHANGE, compareTests } from '../../../src/core/dotnet/baseline-diff';
import { readTrxRun } from '../../../src/core/dotnet/trx-parser';
import type { TestOutcomeKind } from '../../../src/core/dotnet/trx-parser';
import { storedBaseline } from '../../../src/core/dotnet/stored-results';
import type { Baseline, TestResult } from '../../../src/core/model';

const PROJECT = 'tests/Calc.Tests/Calc.Tests.csproj';
const DIVIDE = 'Calc.Tests.CalcTests.Divide';
const ADD = 'Calc.Tests.CalcTests.Add';
const SUB = 'Calc.Tests.CalcTests.Sub';

const baseline: Baseline = {
  build: { success: true, errors: [], warnings: [], durationMs: 1 },
  test: {
    success: false,
    total: 3,
    passed: 2,
    failed: 1,
    skipped: 0,
    failures: [{ testName: DIVIDE, message: 'Expected 2', stackTrace: '' }],
    durationMs: 1,
  },
  capturedAt: '2026-01-01T00:00:00.000Z',
  ranTests: { [PROJECT]: [ADD, SUB, DIVIDE] },
};

function result(passed: number, skipped: number): TestResult {
  return { success: true, total: passed + skipped, passed, failed: 0, skipped, failures: [], durationMs: 1 };
}

describe('test integrity: the comparison with the baseline', () => {
  it('a failing baseline test skipped afterwards is a new failure, "skipped after the change"', () => {
    const outcomes = new Map<string, TestOutcomeKind>([
      [ADD, 'passed'],
      [SUB, 'passed'],
      [DIVIDE, 'skipped'],
    ]);
    const comparison = compareTests(result(2, 1), outcomes, baseline, [PROJECT]);
    assert.equal(comparison.test.success, false);
    assert.deepEqual([comparison.test.total, comparison.test.passed, comparison.test.failed, comparison.test.skipped], [3, 2, 1, 0]);
    assert.deepEqual(
      comparison.newTestFailures.map((failure) => [failure.testName, failure.message.split(':')[0]]),
      [[DIVIDE, SKIPPED_AFTER_CHANGE]],
    );
    assert.deepEqual(comparison.fixedFailures, []);
  });

  it('a passing baseline test removed or filtered out is a new failure, "missing after the change"', () => {
    const outcomes = new Map<string, TestOutcomeKind>([
      [ADD, 'passed'],
      [DIVIDE, 'passed'],
    ]);
    const comparison = compareTests(result(2, 0), outcomes, baseline, [PROJECT]);
    assert.deepEqual([comparison.test.success, comparison.test.total, comparison.test.failed], [false, 3, 1]);
    assert.deepEqual(
      comparison.newTestFailures.map((failure) => [failure.testName, failure.message.split(':')[0], failure.preExisting]),
      [[SUB, MISSING_AFTER_CHANGE, false]],
    );
    assert.deepEqual(comparison.fixedFailures, [DIVIDE]);
  });

  it('holds only the projects that ran whole to the list (a narrowed run is not "missing" the others)', () => {
    const outcomes = new Map<string, TestOutcomeKind>([[DIVIDE, 'failed']]);
    const test: TestResult = {
      success: false,
      total: 1,
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: [{ testName: DIVIDE, message: 'Expected 2', stackTrace: '' }],
      durationMs: 1,
    };
    const comparison = compareTests(test, outcomes, baseline, []);
    assert.deepEqual(comparison.newTestFailures, []);
    assert.deepEqual(comparison.preExistingFailures, [DIVIDE]);
  });

  it('every baseline test run again: nothing added', () => {
    const outcomes = new Map<string, TestOutcomeKind>([
      [ADD, 'passed'],
      [SUB, 'passed'],
      [DIVIDE, 'passed'],
    ]);
    const comparison = compareTests(result(3, 0), outcomes, baseline, [PROJECT]);
    assert.deepEqual([comparison.test.success, comparison.test.failed, comparison.newTestFailures.length], [true, 0, 0]);
  });

  it("the state's copy of the baseline leaves the list out (it is read back from baseline.json)", () => {
    const stored = storedBaseline(baseline, '.ironbees/runs/r/validations/baseline.json');
    assert.equal(stored.ranTests, undefined);
    assert.equal(stored.test?.resultsFile, '.ironbees/runs/r/validations/baseline.json');
  });
});

describe('TRX outcome Aborted', () => {
  it('counts as failed, not passed or skipped', () => {
    const xml =
      '<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>' +
      '<UnitTestResult testId="1" testName="T.Ok" outcome="Passed" />' +
      '<UnitTestResult testId="2" testName="T.Cut" outcome="Aborted" />' +
      '</Results></TestRun>';
    const run = readTrxRun(xml, 'T');
    assert.deepEqual([run.result.total, run.result.passed, run.result.failed, run.result.skipped, run.result.success], [2, 1, 1, 0, false]);
    assert.equal(run.outcomes.get('T.Cut'), 'failed');
    assert.deepEqual(
      run.result.failures.map((failure) => [failure.testName, failure.message]),
      [['T.Cut', 'Test outcome: Aborted']],
    );
  });
});
