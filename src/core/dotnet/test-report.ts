// Turning a test project's run into a TestResult: its TRX files when it wrote some, a run-level failure
// (named `[test run] <project>`) when it could not say which test failed.

import * as path from 'node:path';
import type { Host } from '../host';
import type { TestFailure, TestResult } from '../model';
import { errorMessage } from '../errors';
import { tailOf } from './build';
import { mergeTestResults, piecesOf, readTrxChunks } from './trx-parser';
import type { TestOutcomeKind, TrxRun } from './trx-parser';

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

/** A TRX file as read: its run, or why it could not be read. */
export type TrxReport = TrxRun | Error;

/** Reads (streaming, never the whole text at once) and deletes the given TRX files; a missing one is skipped. */
export async function takeTrxReports(host: Host, files: readonly string[], sourceName: string): Promise<TrxReport[]> {
  const reports: TrxReport[] = [];
  for (const file of files) {
    const report = await readTrxFile(host, file, sourceName);
    if (report !== null) reports.push(report);
    await host.fs.deleteFile(file).catch(() => undefined);
  }
  return reports;
}

async function readTrxFile(host: Host, file: string, sourceName: string): Promise<TrxReport | null> {
  try {
    const chunks = host.fs.readChunks
      ? await host.fs.readChunks(file)
      : await host.fs.readFile(file).then((bytes) => bytes && piecesOf(bytes));
    return chunks === null ? null : await readTrxChunks(chunks, sourceName);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Deletes what an earlier run left in a results folder, unread. */
export async function dropFiles(host: Host, files: readonly string[]): Promise<void> {
  for (const file of files) await host.fs.deleteFile(file).catch(() => undefined);
}

/** Every .trx file directly in `dir` (a folder of this run alone). */
export async function trxFilesIn(host: Host, dir: string): Promise<string[]> {
  const listed = await host.fs.listFiles(dir, { maxFiles: 5_000 }).catch(() => [] as string[]);
  return listed.filter((file) => !file.includes('/') && file.endsWith('.trx')).map((file) => path.join(dir, file));
}

/** The merged result of a project's TRX documents; each test's outcome goes into `outcomes`. */
export function resultFromTrx(
  project: TestProjectRef,
  reports: readonly TrxReport[],
  output: string,
  outcomes: Map<string, TestOutcomeKind>,
): TestResult {
  const unread = reports.find((report): report is Error => report instanceof Error);
  if (unread) return failedRun(project, `Could not read the test results: ${errorMessage(unread)}`, output, false);
  const parsed = reports as readonly TrxRun[];
  for (const { outcomes: ran } of parsed) for (const [name, outcome] of ran) outcomes.set(name, worstOf(outcomes.get(name), outcome));
  const result = mergeTestResults(parsed.map(({ result: one }) => one));
  if (!result.success) result.outputTail = tailOf(output, 2000);
  return result;
}

/**
 * A run stopped because a test hung: each hung test (when the platform named it) is a failure, added to
 * what finished before (`partial`); the run-level failure a report may carry for the abort is replaced.
 */
export function withHungTests(
  partial: TestResult | null,
  project: TestProjectRef,
  hung: readonly string[],
  message: string,
  output: string,
): TestResult {
  const runName = `[test run] ${project.name}`;
  const kept = partial?.failures.filter((failure) => failure.testName !== runName) ?? [];
  const passed = partial?.passed ?? 0;
  const skipped = partial?.skipped ?? 0;
  const failures = [...kept, ...(hung.length > 0 ? hung : [runName]).map((testName) => ({ testName, message, stackTrace: '' }))];
  return {
    success: false,
    total: passed + skipped + failures.length,
    passed,
    failed: failures.length,
    skipped,
    failures,
    durationMs: partial?.durationMs ?? 0,
    outputTail: tailOf(output, 2000),
  };
}
