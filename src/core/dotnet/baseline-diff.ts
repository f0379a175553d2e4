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
  /** The same result, each failure marked `preExisting` when it already failed in the baseline. */
  test: TestResult;
  newTestFailures: TestFailure[];
  preExistingFailures: string[];
  /** Baseline failures that ran this time and passed. */
  fixedFailures: string[];
}

export function compareTests(test: TestResult, outcomes: ReadonlyMap<string, TestOutcomeKind>, baseline: Baseline | null): TestComparison {
  const baselineFailures = new Set((baseline?.test?.failures ?? []).map((failure) => failure.testName));
  const failures = test.failures.map((failure) => ({ ...failure, preExisting: baselineFailures.has(failure.testName) }));
  return {
    test: { ...test, failures },
    newTestFailures: failures.filter((failure) => !failure.preExisting),
    preExistingFailures: failures.filter((failure) => failure.preExisting).map((failure) => failure.testName),
    fixedFailures: [...baselineFailures].filter((name) => outcomes.get(name) === 'passed'),
  };
}
