// `dotnet test --no-build` on test projects, one TRX each, merged into one TestResult. Projects run two
// at a time under one shared deadline: the time limit is for the whole test phase.

import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { Host } from '../../host';
import type { TestFailure, TestResult } from '../../model';
import { errorMessage } from '../../errors';
import { IRONBEES_TMP_DIR, tailOf } from './build';
import { runDotnet, testEnv } from './dotnet-cli';
import { describeSkipped, frameworkPlanFor } from './target-frameworks';
import { mergeTestResults, readTrxRun } from './trx-parser';
import type { TestOutcomeKind } from './trx-parser';

export interface TestProjectRef {
  absPath: string;
  name: string;
}

export interface TestRequest {
  host: Host;
  projects: readonly TestProjectRef[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** How many test projects run at once. */
  concurrency?: number;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

export interface TestRun {
  result: TestResult;
  /** Every test that ran, by name, with how it ended: tells "fixed" from "not run this time". */
  outcomes: Map<string, TestOutcomeKind>;
}

const DEFAULT_CONCURRENCY = 2;

function runFailure(project: TestProjectRef, message: string): TestFailure {
  return { testName: `[test run] ${project.name}`, message, stackTrace: '' };
}

function failedRun(project: TestProjectRef, message: string, output: string, timedOut: boolean): TestResult {
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
function worstOf(current: TestOutcomeKind | undefined, next: TestOutcomeKind): TestOutcomeKind {
  return current !== undefined && SEVERITY[current] > SEVERITY[next] ? current : next;
}

/** vstest prints one "Results File: <path>" line per TRX it writes (one per target framework). */
function resultFilesIn(output: string): string[] {
  return [...output.matchAll(/^\s*Results File:\s*(.+\.trx)\s*$/gm)].map((match) => (match[1] ?? '').trim());
}

/** The TRX files of one run: named in the output, or found by their unique prefix if the output lost them. */
async function findTrxFiles(host: Host, output: string, resultsDir: string, prefix: string): Promise<string[]> {
  const named = resultFilesIn(output).filter((file) => path.basename(file).startsWith(prefix));
  if (named.length > 0) return named;
  const listed = await host.fs.listFiles(resultsDir, { maxFiles: 5_000 }).catch(() => [] as string[]);
  return listed.filter((file) => !file.includes('/') && file.startsWith(prefix) && file.endsWith('.trx')).map((file) => path.join(resultsDir, file));
}

async function testOneProject(
  request: TestRequest,
  project: TestProjectRef,
  deadline: number,
  outcomes: Map<string, TestOutcomeKind>,
): Promise<TestResult> {
  const { host } = request;
  const remainingMs = Math.max(1, deadline - Date.now());
  const resultsDir = path.join(host.workspaceRoot, IRONBEES_TMP_DIR, 'test-results');
  // A prefix, not a file name: a multi-targeted project writes one TRX per framework (`<prefix>_<tfm>_<time>.trx`).
  const prefix = `${project.name}-${Date.now()}-${randomUUID().slice(0, 8)}`;
  const args = ['test', project.absPath, '--no-build', '--no-restore', '--nologo', '--logger', `trx;LogFilePrefix=${prefix}`, '--results-directory', resultsDir];
  // A multi-targeted project is tested on the frameworks whose runtime is installed; the others are named.
  const plan = await frameworkPlanFor(host, project.absPath);
  const skippedFrameworks = describeSkipped(project.name, plan.skipped);
  if (plan.skipped.length > 0 && plan.run.length === 0) return { ...mergeTestResults([]), skippedFrameworks };
  if (plan.skipped.length > 0) args.push(`-p:TargetFrameworks=${plan.run.join('%3B')}`);
  const run = await runDotnet(host, args, { cwd: host.workspaceRoot, timeoutMs: remainingMs, signal: request.signal, env: testEnv(), onOutput: request.onOutput });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trxTexts: string[] = [];
  for (const file of await findTrxFiles(host, output, resultsDir, prefix)) {
    const bytes = await host.fs.readFile(file);
    if (bytes !== null) trxTexts.push(new TextDecoder().decode(bytes));
    await host.fs.deleteFile(file).catch(() => undefined);
  }
  if (run.timedOut) {
    const seconds = Math.round(request.timeoutMs / 1000);
    return failedRun(project, `The tests did not finish within ${seconds} s and were stopped with all their processes. A test may hang (a deadlock, a wait for input or network).`, output, true);
  }
  if (trxTexts.length === 0) {
    return failedRun(project, `dotnet test exited with code ${run.exitCode ?? 'none'} and wrote no results; see the output tail.`, output, false);
  }
  try {
    const parsed = trxTexts.map((text) => readTrxRun(text, project.name));
    for (const { outcomes: ran } of parsed) for (const [name, outcome] of ran) outcomes.set(name, worstOf(outcomes.get(name), outcome));
    const result = mergeTestResults(parsed.map(({ result: one }) => one));
    if (!result.success) result.outputTail = tailOf(output, 2000);
    if (skippedFrameworks.length > 0) result.skippedFrameworks = skippedFrameworks;
    return result;
  } catch (error) {
    return failedRun(project, `Could not read the test results: ${errorMessage(error)}`, output, false);
  }
}

/** Runs the projects' tests (already built). */
export async function runTests(request: TestRequest): Promise<TestRun> {
  request.signal?.throwIfAborted();
  const startedAt = Date.now();
  const deadline = startedAt + request.timeoutMs;
  const outcomes = new Map<string, TestOutcomeKind>();
  const results: TestResult[] = new Array(request.projects.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < request.projects.length) {
      const index = next++;
      const project = request.projects[index] as TestProjectRef;
      results[index] = await testOneProject(request, project, deadline, outcomes);
    }
  };
  const concurrency = Math.max(1, Math.min(request.concurrency ?? DEFAULT_CONCURRENCY, request.projects.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  const result = mergeTestResults(results);
  result.durationMs = Date.now() - startedAt;
  return { result, outcomes };
}
