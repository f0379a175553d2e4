// What the validation and escalation sections say about a run, derived from its CodingState.

import type { CodingState, CompilationError, TestFailure } from '../../../src/core/model';

export interface ValidationView {
  buildOk: boolean | null;
  buildErrors: CompilationError[];
  warningCount: number;
  tests: { total: number; passed: number; failed: number; skipped: number; ok: boolean } | null;
  failures: TestFailure[];
  timedOut: boolean;
}

export function validationView(run: CodingState): ValidationView | null {
  const build = run.buildResult;
  const test = run.testResult;
  if (build === null && test === null) return null;
  return {
    buildOk: build === null ? null : build.success,
    buildErrors: build?.errors ?? [],
    warningCount: build?.warnings.length ?? 0,
    tests: test === null ? null : { total: test.total, passed: test.passed, failed: test.failed, skipped: test.skipped, ok: test.success },
    failures: markPreExisting(test?.failures ?? [], run),
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
  return failures.map((f) =>
    f.preExisting !== undefined ? f : { ...f, preExisting: before.has(f.testName) || listed.has(f.testName) },
  );
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
