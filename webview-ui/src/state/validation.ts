// What the validation and escalation sections say about a run, derived from its CodingState.

import type { CodingState, CompilationError, TestFailure } from '../../../src/core/model';

/** A build error, marked when the baseline build (before any edit) already had it. */
export type MarkedBuildError = CompilationError & { preExisting: boolean };

/** Where each test stands compared with the baseline: before → after. */
export type TestChange = 'fixed' | 'still failing' | 'newly failing';

export interface ValidationView {
  buildOk: boolean | null;
  buildErrors: MarkedBuildError[];
  warningCount: number;
  /** `onlyLastFailures`: only the tests that failed last time were run (and still fail); the counts are of those alone. */
  tests: {
    total: number;
    passed: number;
    failed: number;
    skipped: number;
    ok: boolean;
    onlyLastFailures: boolean;
    totalText: string;
  } | null;
  failures: TestFailure[];
  /** Tests that failed in the baseline and pass now (as the validator saw them run). */
  fixed: string[];
  /** What the baseline (before any edit) had, for the "before" of each figure; null when it was not captured. */
  baseline: { buildOk: boolean; errorCount: number; failedTests: number | null } | null;
  timedOut: boolean;
}

export function validationView(run: CodingState): ValidationView | null {
  const build = run.buildResult;
  const test = run.testResult;
  if (build === null && test === null) return null;
  return {
    buildOk: build === null ? null : build.success,
    buildErrors: markBuildErrors(build?.errors ?? []),
    warningCount: build?.warnings.length ?? 0,
    tests:
      test === null
        ? null
        : {
            total: test.total,
            passed: test.passed,
            failed: test.failed,
            skipped: test.skipped,
            ok: test.success,
            onlyLastFailures: test.onlyLastFailures === true,
            // Failing-first ran only the last failures: "1 of 5 run", never a bare 1 beside a baseline of 5.
            totalText: test.onlyLastFailures && run.baseline?.test ? `${test.total} of ${run.baseline.test.total} run` : String(test.total),
          },
    failures: markPreExisting(test?.failures ?? [], run),
    fixed: fixedTests(run),
    baseline: run.baseline
      ? {
          buildOk: run.baseline.build.success,
          errorCount: run.baseline.build.errors.length,
          failedTests: run.baseline.test ? run.baseline.test.failed : null,
        }
      : null,
    timedOut: Boolean(build?.timedOut || test?.timedOut),
  };
}

/**
 * Failures the baseline already had are marked, so the person does not blame the agent for them.
 * The validator usually marks them itself; the baseline is the fallback for older states.
 */
function markPreExisting(failures: TestFailure[], run: CodingState): TestFailure[] {
  const before = new Set((run.baseline?.test?.failures ?? []).map((f) => f.testName));
  const listed = new Set(run.errorContext?.preExistingFailures ?? []);
  return failures.map((f) => (f.preExisting !== undefined ? f : { ...f, preExisting: before.has(f.testName) || listed.has(f.testName) }));
}

/** A failing test's before → after: it failed before any edit too, or the run broke it. */
export function testChange(failure: TestFailure): TestChange {
  return failure.preExisting ? 'still failing' : 'newly failing';
}

/** Build errors the baseline build already had, as the validator marked them (dotnet/baseline-diff.ts). */
function markBuildErrors(errors: CompilationError[]): MarkedBuildError[] {
  return errors.map((e) => ({ ...e, preExisting: e.preExisting === true }));
}

/** The baseline's failing tests the last validation ran and saw pass (state metadata `fixedTests`). */
function fixedTests(run: CodingState): string[] {
  const listed = run.metadata.fixedTests;
  return Array.isArray(listed) ? listed.filter((name): name is string => typeof name === 'string') : [];
}

/** One line per thing that still fails, for the hand-off. */
export function escalationReasons(run: CodingState): string[] {
  const context = run.errorContext;
  if (context !== null) {
    const lines = [
      ...context.newBuildErrors.map((e) => `${e.code} ${location(e)}${e.message}`),
      ...context.newTestFailures.map((f) => `${f.testName}: ${firstLine(f.message)}`),
    ];
    if (lines.length > 0) return lines;
  }
  const build = run.buildResult;
  if (build !== null && !build.success) return build.errors.map((e) => `${e.code} ${location(e)}${e.message}`);
  const test = run.testResult;
  if (test !== null && !test.success) return test.failures.map((f) => `${f.testName}: ${firstLine(f.message)}`);
  return [];
}

function location(error: CompilationError): string {
  return error.filePath === null ? '' : `${error.filePath}(${error.line},${error.column}): `;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
