// Turning a test project's run into a TestResult: its TRX files when it wrote some, a run-level failure
// (named `[test run] <project>`) when it could not say which test failed.

import * as path from 'node:path';
import type { Host } from '../host';
import type { TestFailure, TestResult } from '../model';
import { errorMessage } from '../errors';
import { tailOf } from './build';
import { mergeTestResults, readTrxRun } from './trx-parser';
import type { TestOutcomeKind } from './trx-parser';

export interface TestProjectRef {
  absPath: string;
  name: string;
}

export function runFailure(project: TestProjectRef, message: string): TestFailure {
  return { testName: `[test run] ${project.name}`, message, stackTrace: '' };
}

export function failedRun(project: TestProjectRef, message: string, output: string, timedOut: boolean): TestResult {
  const result: TestResult = {
    success: false,
    total: 1,
    passed: 0,
    failed: 1,
    skipped: 0,
    failures: [runFailure(project, message)],
    durationMs: 0,
    outputTail: tailOf(output),
  };
  if (timedOut) result.timedOut = true;
  return result;
}

const SEVERITY: Record<TestOutcomeKind, number> = { skipped: 0, passed: 1, failed: 2 };

/** A test run for several frameworks (or in several projects) failed if it failed anywhere. */
export function worstOf(current: TestOutcomeKind | undefined, next: TestOutcomeKind): TestOutcomeKind {
  return current !== undefined && SEVERITY[current] > SEVERITY[next] ? current : next;
}

/** Reads and deletes the given TRX files. */
export async function takeTrxTexts(host: Host, files: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const file of files) {
    const bytes = await host.fs.readFile(file);
    if (bytes !== null) texts.push(new TextDecoder().decode(bytes));
    await host.fs.deleteFile(file).catch(() => undefined);
  }
  return texts;
}

/** Every .trx file directly in `dir` (a folder of this run alone). */
export async function trxFilesIn(host: Host, dir: string): Promise<string[]> {
  const listed = await host.fs.listFiles(dir, { maxFiles: 5_000 }).catch(() => [] as string[]);
  return listed.filter((file) => !file.includes('/') && file.endsWith('.trx')).map((file) => path.join(dir, file));
}

/** The merged result of a project's TRX documents; each test's outcome goes into `outcomes`. */
export function resultFromTrx(
  project: TestProjectRef,
  trxTexts: readonly string[],
  output: string,
  outcomes: Map<string, TestOutcomeKind>,
): TestResult {
  try {
    const parsed = trxTexts.map((text) => readTrxRun(text, project.name));
    for (const { outcomes: ran } of parsed) for (const [name, outcome] of ran) outcomes.set(name, worstOf(outcomes.get(name), outcome));
    const result = mergeTestResults(parsed.map(({ result: one }) => one));
    if (!result.success) result.outputTail = tailOf(output, 2000);
    return result;
  } catch (error) {
    return failedRun(project, `Could not read the test results: ${errorMessage(error)}`, output, false);
  }
}

/**
 * A run stopped because a test hung: each hung test (when the platform named it) is a failure, added to
 * what finished before (`partial`); the run-level failure a report may carry for the abort is replaced.
 */
export function withHungTests(partial: TestResult | null, project: TestProjectRef, hung: readonly string[], message: string, output: string): TestResult {
  const runName = `[test run] ${project.name}`;
  const kept = partial?.failures.filter((failure) => failure.testName !== runName) ?? [];
  const passed = partial?.passed ?? 0;
  const skipped = partial?.skipped ?? 0;
  const failures = [...kept, ...(hung.length > 0 ? hung : [runName]).map((testName) => ({ testName, message, stackTrace: '' }))];
  return { success: false, total: passed + skipped + failures.length, passed, failed: failures.length, skipped, failures, durationMs: partial?.durationMs ?? 0, outputTail: tailOf(output, 2000) };
}
