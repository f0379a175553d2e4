// Runs one Microsoft.Testing.Platform test project and reads its results: the TRX report first (MTP's
// TrxReport extension, or xunit v3's own), the console summary only as a labelled last resort, and the
// platform's documented exit codes for everything a report cannot say (zero tests, a crash, an abort).

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Host, RunResult } from '../host';
import type { TestResult } from '../model';
import { IRONBEES_TMP_DIR, tailOf } from './build';
import { runDotnet, testEnv } from './dotnet-cli';
import { hangBudget, rerunHangMs } from './hang-budget';
import { hangDumpArgs, takeHungTests } from './mtp-hang';
import type { HungTests } from './mtp-hang';
import { CONSOLE_LABEL, crashingTestIn, mtpConsoleFailures, readMtpConsole } from './mtp-output';
import type { TestRunnerFacts } from './project-file';
import { describeMtpExit, mtpReportArgs } from './test-platform';
import type { TestRunKind } from './test-platform';
import { dropFiles, failedRun, resultFromTrx, takeTrxReports, trxFilesIn, withHungTests } from './test-report';
import type { TestProjectRef, TrxReport } from './test-report';
import type { TestOutcomeKind } from './trx-parser';

export interface MtpProjectRun {
  host: Host;
  project: TestProjectRef & { testRunner?: TestRunnerFacts };
  kind: Extract<TestRunKind, 'mtp-dotnet-test' | 'mtp-direct'>;
  /** The built test application: run as it is (`dotnet exec`), without `dotnet test`/`dotnet run` evaluating the project again. */
  assembly?: string;
  /** Where dotnet starts (the folder of the global.json that chose the mode). */
  cwd: string;
  remainingMs: number;
  /** How long this project's tests took last time, when known (hang-budget.ts). */
  expectedMs?: number;
  /** The whole test phase's limit, for the message when it is reached. */
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** MTP filter arguments (e.g. `--filter-uid`), when only some tests run. */
  filterArgs?: readonly string[];
  /** The hang dump watches the first run already (a re-run after a run of another kind reached its limit). */
  watchHangs?: boolean;
}

/** One folder per project (not per run): emptied of reports before each run, so nothing piles up. */
export function resultsDirOf(host: Host, project: TestProjectRef): string {
  const hash = createHash('sha256').update(project.absPath).digest('hex').slice(0, 8);
  return path.join(host.workspaceRoot, IRONBEES_TMP_DIR, 'test-results', `${project.name}-${hash}`);
}

export function mtpArgs(
  request: MtpProjectRun,
  resultsDir: string,
  reportArgs: readonly string[],
  hangArgs: readonly string[] = [],
): string[] {
  const platformArgs = [
    '--results-directory',
    resultsDir,
    ...reportArgs,
    ...hangArgs,
    '--no-progress',
    '--no-ansi',
    ...(request.filterArgs ?? []),
  ];
  if (request.assembly) return ['exec', request.assembly, ...platformArgs];
  if (request.kind === 'mtp-dotnet-test')
    return ['test', '--project', request.project.absPath, '--no-build', '--no-restore', ...platformArgs];
  return ['run', '--project', request.project.absPath, '--no-build', '--no-restore', '--', ...platformArgs];
}

interface OneRun {
  run: RunResult;
  output: string;
  trx: TrxReport[];
  /** The tests the hang dump stopped (null: none was taken). */
  hung: HungTests | null;
}

/** One run; `hangArgs` (the hang dump's options, or none) and its own limit. */
async function runOnce(
  request: MtpProjectRun,
  resultsDir: string,
  reportArgs: readonly string[],
  hangArgs: readonly string[],
  limitMs: number,
): Promise<OneRun> {
  const { host } = request;
  await dropFiles(host, await trxFilesIn(host, resultsDir));
  if (request.project.testRunner?.hangDump) await takeHungTests(host, resultsDir);
  const run = await runDotnet(host, mtpArgs(request, resultsDir, reportArgs, hangArgs), {
    cwd: request.cwd,
    timeoutMs: limitMs,
    signal: request.signal,
    env: testEnv(process.platform, host.workspaceRoot),
    onOutput: request.onOutput,
  });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trx = await takeTrxReports(host, await trxFilesIn(host, resultsDir), request.project.name);
  const hung = hangArgs.length > 0 ? await takeHungTests(host, resultsDir) : null;
  return { run, output, trx, hung };
}

/** A project whose runner does not know the report option (a framework without the TrxReport extension). */
function rejectedReportOption(run: RunResult, output: string, reportArgs: readonly string[]): boolean {
  return (
    run.exitCode === 5 &&
    reportArgs.length > 0 &&
    reportArgs.some((arg) => output.includes(arg)) &&
    /unknown option|unrecognized/i.test(output)
  );
}

export function withExtraFailure(result: TestResult, project: TestProjectRef, message: string, output: string): TestResult {
  return {
    ...result,
    success: false,
    total: result.total + 1,
    failed: result.failed + 1,
    failures: [...result.failures, { testName: `[test run] ${project.name}`, message, stackTrace: '' }],
    outputTail: tailOf(output, 2000),
  };
}

function crashMessage(output: string, exitCode: number | null): string {
  const test = crashingTestIn(output);
  const where = test ? `while running ${test}` : 'and no test could be named from its output';
  return `The test host crashed ${where}: ${describeMtpExit(exitCode)}. Tests that had not run yet were not run. See the output tail for the crash's own message.`;
}

export async function runMtpProject(request: MtpProjectRun, outcomes: Map<string, TestOutcomeKind>): Promise<TestResult> {
  const { project } = request;
  const resultsDir = resultsDirOf(request.host, project);
  const deadline = Date.now() + request.remainingMs;
  const left = (): number => Math.max(1, deadline - Date.now());
  // No hang dump on a first run (a controller process every run); Ironbees' limit stops a hang (hang-budget.ts).
  const budget = request.watchHangs
    ? { firstRunMs: request.remainingMs, rerun: false }
    : hangBudget(request.remainingMs, project.testRunner?.hangDump === true, request.expectedMs);
  let hangArgs = request.watchHangs ? hangDumpArgs(project.testRunner, rerunHangMs(request.remainingMs, request.expectedMs)) : [];
  let reportArgs = mtpReportArgs(project.testRunner);
  let { run, output, trx, hung } = await runOnce(request, resultsDir, reportArgs, hangArgs, budget.firstRunMs);
  if (rejectedReportOption(run, output, reportArgs)) {
    reportArgs = [];
    ({ run, output, trx, hung } = await runOnce(request, resultsDir, reportArgs, hangArgs, Math.min(budget.firstRunMs, left())));
  }
  if (run.timedOut && budget.rerun) {
    request.host.logger.info(`${project.name}: the tests did not finish; running them again with the hang dump to name the hung test.`);
    hangArgs = hangDumpArgs(project.testRunner, rerunHangMs(left(), request.expectedMs));
    ({ run, output, trx, hung } = await runOnce(request, resultsDir, reportArgs, hangArgs, left()));
  }
  if (hung) return hungRun(project, hung, trx, output, outcomes);
  if (run.timedOut) return timedOutRun(request, trx, output, outcomes);
  const code = run.exitCode;
  if (trx.length > 0) {
    const result = resultFromTrx(project, trx, output, outcomes);
    if (code === 0 || (code === 2 && result.failed > 0)) return result;
    if (code === 7) return withExtraFailure(withoutRunInfoFailure(result, project), project, crashMessage(output, code), output);
    if (code === 2) return result;
    return withExtraFailure(
      withoutRunInfoFailure(result, project),
      project,
      `The test run did not succeed: ${describeMtpExit(code)}.`,
      output,
    );
  }
  if (code === 7) return failedRun(project, crashMessage(output, code), output, false);
  if (code === 8)
    return failedRun(
      project,
      `No test ran in ${project.name}: ${describeMtpExit(code)}. A filter matched nothing, or the project has no tests the framework can discover.`,
      output,
      false,
    );
  const fromConsole = readMtpConsole(output, project.name);
  if (fromConsole && (code === 0 || code === 2)) {
    for (const failure of fromConsole.failures) outcomes.set(failure.testName, 'failed');
    if (!fromConsole.success) fromConsole.outputTail = tailOf(output, 2000);
    return fromConsole;
  }
  const refusal = /using VSTest test runner|All projects must use that test runner/i.test(output)
    ? ' dotnet test runs only Microsoft.Testing.Platform projects when global.json selects it; this project uses VSTest.'
    : '';
  return failedRun(
    project,
    `The test run wrote no results: ${describeMtpExit(code)}.${refusal} ${reportArgs.length === 0 ? CONSOLE_LABEL : ''}`.trim(),
    output,
    false,
  );
}

/** Ironbees' limit stopped the run (and no hang dump named a test): a timed-out failure, with what finished. */
export function timedOutRun(
  request: Pick<MtpProjectRun, 'project' | 'timeoutMs'>,
  trx: readonly TrxReport[],
  output: string,
  outcomes: Map<string, TestOutcomeKind>,
): TestResult {
  const { project } = request;
  const seconds = Math.round(request.timeoutMs / 1000);
  const partial = trx.length > 0 ? resultFromTrx(project, trx, output, outcomes) : null;
  const unnamed = project.testRunner?.hangDump
    ? ''
    : ` Microsoft.Testing.Platform names a hung test only with the Microsoft.Testing.Extensions.HangDump package; add it to ${project.name} to see which test hangs.`;
  const message = `The tests did not finish within ${seconds} s and were stopped with all their processes. A test may hang (a deadlock, a wait for input or network).${unnamed}`;
  const result = partial ? withExtraFailure(partial, project, message, output) : failedRun(project, message, output, true);
  result.timedOut = true;
  return result;
}

/** The TRX's own "test host crashed" run failure is replaced by ours, which names the test. */
function withoutRunInfoFailure(result: TestResult, project: TestProjectRef): TestResult {
  const runName = `[test run] ${project.name}`;
  const kept = result.failures.filter((failure) => failure.testName !== runName);
  const removed = result.failures.length - kept.length;
  return {
    ...result,
    failures: kept,
    failed: result.failed - removed,
    total: result.total - removed,
    success: result.failed - removed === 0,
  };
}

/** Marks results read from the console of a run the hang dump stopped (it ends before the report is written). */
const STOPPED_LABEL = '(read from the console output: the test host was stopped before it wrote its report)';

/** A run stopped before its summary: the failures it printed, and nothing counted as passed. */
function failuresOnly(failures: TestResult['failures']): TestResult | null {
  if (failures.length === 0) return null;
  return { success: false, total: failures.length, passed: 0, failed: failures.length, skipped: 0, failures, durationMs: 0 };
}

/** The hang dump stopped the test host: each hung test is a failure, with the tests that finished before. */
function hungRun(
  project: TestProjectRef,
  hung: HungTests,
  trx: readonly TrxReport[],
  output: string,
  outcomes: Map<string, TestOutcomeKind>,
): TestResult {
  const partial =
    trx.length > 0
      ? resultFromTrx(project, trx, output, outcomes)
      : (readMtpConsole(output, project.name, STOPPED_LABEL) ?? failuresOnly(mtpConsoleFailures(output, STOPPED_LABEL)));
  if (trx.length === 0) for (const failure of partial?.failures ?? []) outcomes.set(failure.testName, 'failed');
  for (const name of hung.names) outcomes.set(name, 'failed');
  const what = hung.names.length > 0 ? `${hung.names.join(', ')} hung` : 'The test host hung with no test running';
  const how = hung.ranFor ? `it ran for ${hung.ranFor} without finishing` : 'nothing finished within the hang timeout';
  const message = `${what}: ${how}, so Microsoft.Testing.Platform's hang dump stopped the test host. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.`;
  return withHungTests(partial, project, hung.names, message, output);
}
