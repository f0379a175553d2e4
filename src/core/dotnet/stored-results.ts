// What a saved state keeps of a validation. state.json is rewritten at every step and every change is
// a `--json` line, so a change that breaks 500 tests must not copy 500 messages and stacks into each:
// the state keeps counts, the new/still/fixed split and the first failures, shortened; every failure
// in full goes once to a results file in the run folder (see workflow/validation-results.ts).

import type { Baseline, ErrorContext, TestFailure, TestResult } from '../model';
import { clip } from '../platform/text';
import { shortenStack } from './stack-frames';

/** Failures listed in a saved test result (the panel, the CLI and HANDOFF.md list fewer). */
export const MAX_STORED_FAILURES = 50;
/** New failures listed in a saved error context: the coder reads its text, which is capped on its own. */
export const MAX_STORED_CONTEXT_FAILURES = 20;
/** Names of pre-existing failures listed in a saved error context. */
export const MAX_STORED_NAMES = 50;
/** Failures of the baseline listed in a saved state; comparing with the baseline reads its full file. */
export const MAX_STORED_BASELINE_FAILURES = 20;
const MAX_NAME_CHARS = 300;
const MAX_MESSAGE_CHARS = 400;
const MAX_STACK_LINES = 4;
const MAX_FRAME_CHARS = 200;

/** One failure as a saved state keeps it: the name (clipped only if absurd), the message's start, the first frames. */
export function storedFailure(failure: TestFailure): TestFailure {
  const stack = shortenStack(failure.stackTrace, failure.testName, MAX_STACK_LINES)
    .split('\n')
    .map((line) => clip(line, MAX_FRAME_CHARS))
    .join('\n');
  const stored: TestFailure = {
    testName: clip(failure.testName, MAX_NAME_CHARS),
    message: clip(failure.message.trim(), MAX_MESSAGE_CHARS),
    stackTrace: stack,
  };
  if (failure.preExisting !== undefined) stored.preExisting = failure.preExisting;
  return stored;
}

export interface StoredResultFacts {
  /** Workspace-relative path of the full results. */
  resultsFile: string;
  split?: { new: number; still: number; fixed: number };
}

/** A test result as saved: the first `max` failures shortened, the others counted, and where the full list is. */
export function storedTestResult(test: TestResult, facts: StoredResultFacts, max = MAX_STORED_FAILURES): TestResult {
  const stored: TestResult = { ...test, failures: test.failures.slice(0, max).map(storedFailure), resultsFile: facts.resultsFile };
  const omitted = test.failures.length - stored.failures.length;
  if (omitted > 0) stored.failuresOmitted = omitted;
  else delete stored.failuresOmitted;
  if (facts.split) stored.split = facts.split;
  return stored;
}

export function storedBaseline(baseline: Baseline, resultsFile: string): Baseline {
  // Which tests ran is read back from the file when a validation compares (validation-results.ts).
  const { ranTests: _ranTests, ...kept } = baseline;
  return baseline.test ? { ...kept, test: storedTestResult(baseline.test, { resultsFile }, MAX_STORED_BASELINE_FAILURES) } : kept;
}

/** The error context as saved: its text (already capped) whole, its lists capped and counted. */
export function storedErrorContext(context: ErrorContext): ErrorContext {
  const stored: ErrorContext = {
    ...context,
    newTestFailures: context.newTestFailures.slice(0, MAX_STORED_CONTEXT_FAILURES).map(storedFailure),
    preExistingFailures: context.preExistingFailures.slice(0, MAX_STORED_NAMES).map((name) => clip(name, MAX_NAME_CHARS)),
  };
  const newOmitted = context.newTestFailures.length - stored.newTestFailures.length;
  const namesOmitted = context.preExistingFailures.length - stored.preExistingFailures.length;
  if (newOmitted > 0) stored.newTestFailuresOmitted = newOmitted;
  if (namesOmitted > 0) stored.preExistingFailuresOmitted = namesOmitted;
  return stored;
}
