// The Validation section's before → after: every test fixed, still failing or newly failing, and
// every build error new or pre-existing, compared with the baseline taken before any edit.

import { strict as assert } from 'node:assert';
import { testChange, validationView } from '../../../webview-ui/src/state/validation';
import type { Baseline, BuildResult, TestResult } from '../../../src/core/model';
import { makeRun } from './fixtures';
import { markPreExistingErrors } from '../../../src/core/dotnet/baseline-diff';

const OLD_ERROR = { code: 'CS0246', message: "The type 'Foo' could not be found", filePath: 'src/Old.cs', line: 4, column: 1 };
const NEW_ERROR = { code: 'CS1002', message: '; expected', filePath: 'src/A.cs', line: 3, column: 9 };
const build = (errors: BuildResult['errors']): BuildResult => ({ success: errors.length === 0, errors, warnings: [], durationMs: 1 });
const tests = (names: string[], total = 5): TestResult => ({
  success: names.length === 0,
  total,
  passed: total - names.length,
  failed: names.length,
  skipped: 0,
  failures: names.map((testName) => ({ testName, message: 'boom', stackTrace: '' })),
  durationMs: 1,
});
const BASELINE: Baseline = { build: build([OLD_ERROR]), test: tests(['T.Fixed', 'T.Old']), capturedAt: 'x' };

describe('webview validation before → after', () => {
  it('shows each build error new or pre-existing as the validator marked it (matched without line numbers)', () => {
    const movedOld = { ...OLD_ERROR, line: 40 };
    const view = validationView(
      makeRun({ baseline: BASELINE, buildResult: build(markPreExistingErrors([movedOld, NEW_ERROR], BASELINE)) }),
    );
    assert.deepEqual(
      view?.buildErrors.map((e) => [e.code, e.preExisting]),
      [
        ['CS0246', true],
        ['CS1002', false],
      ],
    );
    assert.deepEqual(view?.baseline, { buildOk: false, errorCount: 1, failedTests: 2 });
  });

  it('says fixed, still failing and newly failing for the tests', () => {
    const run = makeRun({
      baseline: BASELINE,
      buildResult: build([]),
      testResult: tests(['T.Old', 'T.New']),
      metadata: { fixedTests: ['T.Fixed'] },
    });
    const view = validationView(run);
    assert.deepEqual(view?.fixed, ['T.Fixed']);
    assert.deepEqual(
      view?.failures.map((f) => [f.testName, testChange(f)]),
      [
        ['T.Old', 'still failing'],
        ['T.New', 'newly failing'],
      ],
    );
  });

  it('claims no fix the validator did not see, and no baseline it did not take', () => {
    const view = validationView(makeRun({ buildResult: build([NEW_ERROR]), metadata: { fixedTests: 'T.Fixed' } }));
    assert.deepEqual(view?.fixed, []);
    assert.equal(view?.baseline, null);
    assert.equal(view?.buildErrors[0]?.preExisting, false);
  });

  it('compares nothing itself: an error the validator did not mark is not shown as pre-existing', () => {
    const view = validationView(makeRun({ baseline: BASELINE, buildResult: build([OLD_ERROR]) }));
    assert.deepEqual(
      view?.buildErrors.map((e) => [e.code, e.preExisting]),
      [['CS0246', false]],
    );
  });
});
