import assert from 'node:assert/strict';
import type { CompilationError, TestFailure } from '../../../src/core/model';
import { MAX_ERROR_CONTEXT_CHARS, buildErrorContext } from '../../../src/core/dotnet/error-context';
import type { ValidationOutcome } from '../../../src/core/dotnet/validator';

function error(index: number, overrides: Partial<CompilationError> = {}): CompilationError {
  return {
    code: index % 3 === 0 ? 'CS0103' : 'CS1061',
    message: `The name 'thing${index}' does not exist in the current context; ${'a fairly long explanation '.repeat(4)}`,
    filePath: `src/Module${index % 40}/File${index % 40}.cs`,
    line: index + 1,
    column: 5,
    ...overrides,
  };
}

function failure(index: number, preExisting = false): TestFailure {
  return {
    testName: `Suite.Tests.Case${index}`,
    message: `Assert.Equal() Failure: Values differ\nExpected: ${index}\nActual:   ${index + 1}`,
    stackTrace: Array.from({ length: 12 }, (_, frame) => `   at Suite.Tests.Case${index}.Frame${frame}() in /ws/T.cs:line ${frame}`).join(
      '\n',
    ),
    preExisting,
  };
}

const okBuild = { success: true, errors: [], warnings: [], durationMs: 10 };

function testsFailing(failures: TestFailure[], total = failures.length + 5): ValidationOutcome {
  return {
    build: okBuild,
    test: { success: false, total, passed: total - failures.length, failed: failures.length, skipped: 0, failures, durationMs: 10 },
    passed: false,
    newBuildErrors: [],
    newTestFailures: failures.filter((item) => !item.preExisting),
    preExistingFailures: failures.filter((item) => item.preExisting).map((item) => item.testName),
    fixedFailures: [],
    toleratedFailures: [],
  };
}

describe('buildErrorContext', () => {
  it('shows build errors grouped by file, with line, column and code', () => {
    const errors = [
      error(1, { filePath: 'src/A.cs' }),
      error(2, { filePath: 'src/B.cs' }),
      error(3, { filePath: 'src/A.cs', code: 'CS0103' }),
    ];
    const outcome: ValidationOutcome = {
      build: { success: false, errors, warnings: [], durationMs: 10 },
      test: null,
      passed: false,
      newBuildErrors: errors,
      newTestFailures: [],
      preExistingFailures: [],
      fixedFailures: [],
      toleratedFailures: [],
    };
    const context = buildErrorContext(outcome, 2);
    assert.equal(context.iteration, 2);
    assert.deepEqual(context.newBuildErrors, errors);
    const text = context.text;
    assert.match(text, /^Validation failed \(iteration 2\): the build failed\./);
    assert.match(text, /### src\/A\.cs\n- line 2:5 CS1061: .*\n- line 4:5 CS0103: /);
    assert.ok(text.indexOf('### src/A.cs') < text.indexOf('### src/B.cs'));
    assert.equal(text.match(/### src\/A\.cs/g)?.length, 1, 'one heading per file');
  });

  it('stays under the cap with hundreds of errors, and counts what it could not show by code', () => {
    const errors = Array.from({ length: 600 }, (_, index) => error(index));
    const outcome: ValidationOutcome = {
      build: { success: false, errors, warnings: [], durationMs: 10 },
      test: null,
      passed: false,
      newBuildErrors: errors.slice(0, 500),
      newTestFailures: [],
      preExistingFailures: [],
      fixedFailures: [],
      toleratedFailures: [],
    };
    const { text } = buildErrorContext(outcome, 1, { guidance: 'Keep the public API unchanged.' });
    assert.ok(text.length <= MAX_ERROR_CONTEXT_CHARS, `text is ${text.length} characters`);
    assert.match(text, /failed with 600 error\(s\), 500 new, 100 already there before any edit/);
    assert.match(text, /… and \d+ more error\(s\) in \d+ file\(s\): CS1061 ×\d+, CS0103 ×\d+/);
    assert.match(text, /## Guidance from the person\nKeep the public API unchanged\./, "the person's guidance survives the cap");
  });

  it('lists new test failures first, tags pre-existing ones, and trims their stacks', () => {
    const outcome = testsFailing([failure(1, true), failure(2)]);
    const context = buildErrorContext(outcome, 3, { rejections: 'src/Api.cs: do not rename public methods' });
    const text = context.text;
    assert.ok(text.indexOf('Suite.Tests.Case2') < text.indexOf('Suite.Tests.Case1'), 'new failures come first');
    assert.match(text, /### Suite\.Tests\.Case1 \[already failing before any edit\]/);
    assert.match(text, /## Tests: 2 of 7 failed \(1 new, 1 already failing before any edit\)/);
    assert.match(
      text,
      /Already failing before any edit \(not caused by your change; fix them only if the request asks\): Suite\.Tests\.Case1\./,
    );
    assert.ok(!text.includes('Frame5()'), 'stacks are cut to the top frames');
    assert.ok(text.includes('Frame4() in /ws/T.cs:line 4\n   … 7 more frames'));
    assert.match(text, /## Changes the person rejected\nsrc\/Api\.cs: do not rename public methods/);
    assert.deepEqual(context.preExistingFailures, ['Suite.Tests.Case1']);
    assert.equal(context.rejections, 'src/Api.cs: do not rename public methods');
    assert.equal(context.guidance, undefined);
  });

  it('stays under the cap with hundreds of failing tests and names the ones it could not show', () => {
    const failures = Array.from({ length: 300 }, (_, index) => failure(index, index % 10 === 0));
    const { text } = buildErrorContext(testsFailing(failures, 1000), 4);
    assert.ok(text.length <= MAX_ERROR_CONTEXT_CHARS, `text is ${text.length} characters`);
    assert.match(text, /… and \d+ more failing test\(s\): Suite\.Tests\.Case/);
    assert.match(text, /Already failing before any edit .*: (Suite\.Tests\.Case\d+, ){19}Suite\.Tests\.Case\d+ and 10 more\./);
  });

  it('shows the end of the build output when MSBuild gave no parsable error, and says when it timed out', () => {
    const timeout: CompilationError = {
      code: 'TIMEOUT',
      message: 'The build did not finish within 5 s',
      filePath: null,
      line: 0,
      column: 0,
    };
    const outcome: ValidationOutcome = {
      build: {
        success: false,
        errors: [timeout],
        warnings: [],
        durationMs: 5000,
        timedOut: true,
        outputTail: 'Restoring…\nExec: sleep 600',
      },
      test: null,
      passed: false,
      newBuildErrors: [timeout],
      newTestFailures: [],
      preExistingFailures: [],
      fixedFailures: [],
      toleratedFailures: [],
    };
    const { text } = buildErrorContext(outcome, 1);
    assert.match(text, /the build timed out/);
    assert.match(text, /### \(no file\)\n- TIMEOUT: The build did not finish within 5 s/);
    assert.match(text, /Last build output:\n```\nRestoring…\nExec: sleep 600\n```/);
  });

  it('works on an outcome read back from JSON (no shared objects)', () => {
    const errors = [error(1), error(2)];
    const outcome: ValidationOutcome = JSON.parse(
      JSON.stringify({
        build: { success: false, errors, warnings: [], durationMs: 1 },
        test: null,
        passed: false,
        newBuildErrors: [errors[1]],
        newTestFailures: [],
        preExistingFailures: [],
        fixedFailures: [],
        toleratedFailures: [],
      }),
    );
    const { text } = buildErrorContext(outcome, 1);
    assert.equal(text.match(/thing2/g)?.length, 1);
    assert.match(text, /thing1.*\[already failing before any edit\]/);
  });
});
