import { strict as assert } from 'node:assert';
import { escalationReasons, validationView } from '../../../webview-ui/src/state/validation';
import type { BuildResult, TestResult } from '../../../src/core/model';
import { makeRun } from './fixtures';

const FAILED_BUILD: BuildResult = {
  success: false,
  errors: [{ code: 'CS1002', message: '; expected', filePath: 'src/A.cs', line: 3, column: 9 }],
  warnings: [{ code: 'CS0168', message: 'unused', filePath: 'src/A.cs', line: 1, column: 1 }],
  durationMs: 900,
};
const FAILED_TESTS: TestResult = {
  success: false,
  total: 3,
  passed: 1,
  failed: 2,
  skipped: 0,
  failures: [
    { testName: 'T.Divide', message: 'Assert.Equal() Failure\nExpected: 2', stackTrace: '' },
    { testName: 'T.Old', message: 'always broken', stackTrace: '' },
  ],
  durationMs: 1200,
};

describe('webview validation view', () => {
  it('is null before anything was validated', () => {
    assert.equal(validationView(makeRun()), null);
  });

  it('lists build errors, warnings and test counts', () => {
    const view = validationView(makeRun({ buildResult: FAILED_BUILD, testResult: FAILED_TESTS }));
    assert.ok(view);
    assert.equal(view.buildOk, false);
    assert.equal(view.buildErrors.length, 1);
    assert.equal(view.warningCount, 1);
    assert.deepEqual(view.tests, { total: 3, passed: 1, failed: 2, skipped: 0, ok: false, onlyLastFailures: false, totalText: '3' });
  });

  it('says when only the tests that failed last time were run (failing-first), so "Total 1" is not read as every test', () => {
    const view = validationView(makeRun({ testResult: { ...FAILED_TESTS, total: 1, passed: 0, failed: 1, onlyLastFailures: true } }));
    assert.deepEqual(view?.tests, { total: 1, passed: 0, failed: 1, skipped: 0, ok: false, onlyLastFailures: true, totalText: '1' });
    // Against a baseline of 5 tests: "1 of 5 run", not "Total 1".
    const baseline = {
      capturedAt: 'then',
      build: { success: true, errors: [], warnings: [], durationMs: 1 },
      test: { ...FAILED_TESTS, total: 5, passed: 4, failed: 1 },
    };
    const against = validationView(
      makeRun({ baseline, testResult: { ...FAILED_TESTS, total: 1, passed: 0, failed: 1, onlyLastFailures: true } }),
    );
    assert.equal(against?.tests?.totalText, '1 of 5 run');
    assert.equal(
      validationView(makeRun({ baseline, testResult: { ...FAILED_TESTS, total: 5, passed: 5, failed: 0 } }))?.tests?.totalText,
      '5',
    );
  });

  it('marks failures the baseline already had', () => {
    const run = makeRun({
      testResult: FAILED_TESTS,
      baseline: {
        build: { ...FAILED_BUILD, success: true, errors: [] },
        test: { ...FAILED_TESTS, failures: [FAILED_TESTS.failures[1]!] },
        capturedAt: 'x',
      },
    });
    const view = validationView(run);
    assert.deepEqual(
      view?.failures.map((f) => [f.testName, f.preExisting]),
      [
        ['T.Divide', false],
        ['T.Old', true],
      ],
    );
  });

  it('keeps the validator marking when it is there', () => {
    const run = makeRun({ testResult: { ...FAILED_TESTS, failures: [{ ...FAILED_TESTS.failures[0]!, preExisting: true }] } });
    assert.equal(validationView(run)?.failures[0]?.preExisting, true);
  });

  it('explains an escalation from the error context first, then from the results', () => {
    const fromContext = makeRun({
      errorContext: {
        iteration: 2,
        text: '',
        newBuildErrors: FAILED_BUILD.errors,
        newTestFailures: [FAILED_TESTS.failures[0]!],
        preExistingFailures: [],
      },
    });
    assert.deepEqual(escalationReasons(fromContext), ['CS1002 src/A.cs(3,9): ; expected', 'T.Divide: Assert.Equal() Failure']);
    assert.deepEqual(escalationReasons(makeRun({ buildResult: FAILED_BUILD })), ['CS1002 src/A.cs(3,9): ; expected']);
    assert.equal(
      escalationReasons(makeRun({ buildResult: { ...FAILED_BUILD, success: true, errors: [] }, testResult: FAILED_TESTS })).length,
      2,
    );
    assert.deepEqual(escalationReasons(makeRun()), []);
  });
});
