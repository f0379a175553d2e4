// Compares a validation with the INIT baseline, so failures that were already there are never blamed
// on (or credited to) the agent.

import type { Baseline, CompilationError, TestFailure, TestResult } from '../model';
import { diagnosticIdentity } from './msbuild-parser';
import type { TestOutcomeKind } from './trx-parser';

/** Errors absent from the baseline build (compared without line numbers, which shift with edits above). */
export function newErrorsSince(errors: readonly CompilationError[], baseline: Baseline | null): CompilationError[] {
  if (!baseline) return [...errors];
  const known = new Set(baseline.build.errors.map(diagnosticIdentity));
  return errors.filter((error) => !known.has(diagnosticIdentity(error)));
}

/** Each error marked `preExisting` when the baseline build had it too, so the faces show it without comparing again. */
export function markPreExistingErrors(errors: readonly CompilationError[], baseline: Baseline | null): CompilationError[] {
  const known = new Set((baseline?.build.errors ?? []).map(diagnosticIdentity));
  return errors.map((error) => ({ ...error, preExisting: known.has(diagnosticIdentity(error)) }));
}

export interface TestComparison {
  /**
   * The same result, each failure marked `preExisting` when it already failed in the baseline, with
   * a failure added for each baseline test of the projects run that is skipped or missing now.
   */
  test: TestResult;
  newTestFailures: TestFailure[];
  preExistingFailures: string[];
  /** Baseline failures that ran this time and passed. */
  fixedFailures: string[];
}

/**
 * `projects`: the workspace-relative test projects this run ran whole; every test the baseline ran in
 * them must have run again (passed or failed). Skipping a failing test is not fixing it.
 */
export function compareTests(
  test: TestResult,
  outcomes: ReadonlyMap<string, TestOutcomeKind>,
  baseline: Baseline | null,
  projects: readonly string[] = [],
): TestComparison {
  const baselineFailures = new Set((baseline?.test?.failures ?? []).map((failure) => failure.testName));
  const vanished = vanishedTests(outcomes, baseline, projects);
  const failures = [...test.failures.map((failure) => ({ ...failure, preExisting: baselineFailures.has(failure.testName) })), ...vanished];
  const skippedNow = vanished.filter((failure) => outcomes.get(failure.testName) === 'skipped').length;
  const counted =
    vanished.length === 0
      ? test
      : {
          ...test,
          success: false,
          failed: test.failed + vanished.length,
          skipped: Math.max(0, test.skipped - skippedNow),
          total: test.total + vanished.length - skippedNow,
        };
  return {
    test: { ...counted, failures },
    newTestFailures: failures.filter((failure) => !failure.preExisting),
    preExistingFailures: failures.filter((failure) => failure.preExisting).map((failure) => failure.testName),
    fixedFailures: [...baselineFailures].filter((name) => outcomes.get(name) === 'passed'),
  };
}

/** Why a baseline test that did not run again counts as failing: said the same way everywhere. */
export const SKIPPED_AFTER_CHANGE = 'skipped after the change';
export const MISSING_AFTER_CHANGE = 'missing after the change';

/** A failure for each baseline test of `projects` that was skipped, filtered out or removed this time. */
function vanishedTests(
  outcomes: ReadonlyMap<string, TestOutcomeKind>,
  baseline: Baseline | null,
  projects: readonly string[],
): TestFailure[] {
  const ranBefore = baseline?.ranTests;
  if (!ranBefore) return [];
  const failures: TestFailure[] = [];
  for (const project of projects) {
    for (const testName of ranBefore[project] ?? []) {
      const now = outcomes.get(testName);
      if (now === 'passed' || now === 'failed') continue;
      const how = now === 'skipped' ? SKIPPED_AFTER_CHANGE : MISSING_AFTER_CHANGE;
      const detail =
        now === 'skipped'
          ? 'It ran in the baseline and is skipped now: a skipped test is not a fixed one. Remove the skip and make it pass.'
          : 'It ran in the baseline and did not run now (removed, renamed or filtered out): a test that no longer runs is not a fixed one. Restore it and make it pass.';
      failures.push({ testName, message: `${how}: ${detail}`, stackTrace: '', preExisting: false });
    }
  }
  return failures;
}
