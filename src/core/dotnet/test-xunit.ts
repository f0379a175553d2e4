// An xunit v3 test project that did not opt into Microsoft.Testing.Platform's runner is an executable
// with xunit's own in-process runner: started directly (`dotnet exec <dll>`) it runs its tests and writes
// a TRX with `-result-trx <file>`, without the second MSBuild evaluation `dotnet test --project` costs.
// Its exit code is 0 when every test passed and 1 when one failed; anything else, or no report, is a
// run-level failure. MTP's options (`--report-xunit-trx`, `--hangdump`) are unknown to that runner. A
// run that reaches its share of Ironbees' limit (hang-budget.ts) runs again to name the hung test:
// through `dotnet test` with the hang dump when the project has that extension, else on its own runner
// with its long-running detection, stopped as soon as that names a test.

import * as path from 'node:path';
import type { TestResult } from '../model';
import { runDotnet, testEnv } from './dotnet-cli';
import { hangBudget, hangTimeoutSeconds, rerunHangMs } from './hang-budget';
import { crashingTestIn } from './mtp-output';
import { resultsDirOf, runMtpProject, timedOutRun, withExtraFailure } from './test-mtp';
import type { MtpProjectRun } from './test-mtp';
import { dropFiles, failedRun, resultFromTrx, takeTrxReports, trxFilesIn, withHungTests } from './test-report';
import type { TestOutcomeKind } from './trx-parser';
import { longRunningTests, nativeFailures } from './xunit-output';

export type XunitProjectRun = Omit<MtpProjectRun, 'kind' | 'assembly' | 'watchHangs'> & { assembly: string };

/** `--filter-method <name>` pairs (the platform's syntax, failing-first.ts) in the native runner's `-method <name>`. */
export function nativeFilterArgs(filterArgs: readonly string[]): string[] {
  const args: string[] = [];
  for (let at = 0; at < filterArgs.length; at++) {
    if (filterArgs[at] === '--filter-method' && filterArgs[at + 1] !== undefined) args.push('-method', filterArgs[++at] ?? '');
  }
  return args;
}

export function xunitArgs(assembly: string, trxPath: string, filterArgs: readonly string[] = []): string[] {
  return ['exec', assembly, '-noLogo', '-noColor', '-result-trx', trxPath, ...nativeFilterArgs(filterArgs)];
}

export async function runXunitProject(request: XunitProjectRun, outcomes: Map<string, TestOutcomeKind>): Promise<TestResult> {
  const { host, project } = request;
  const resultsDir = resultsDirOf(host, project);
  await dropFiles(host, await trxFilesIn(host, resultsDir));
  const deadline = Date.now() + request.remainingMs;
  const budget = hangBudget(request.remainingMs, true, request.expectedMs);
  const run = await runDotnet(host, xunitArgs(request.assembly, path.join(resultsDir, `${project.name}.trx`), request.filterArgs), {
    cwd: request.cwd,
    timeoutMs: budget.firstRunMs,
    signal: request.signal,
    env: testEnv(process.platform, host.workspaceRoot),
    onOutput: request.onOutput,
  });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trx = await takeTrxReports(host, await trxFilesIn(host, resultsDir), project.name);
  if (run.timedOut && budget.rerun) {
    const remainingMs = Math.max(1, deadline - Date.now());
    if (!project.testRunner?.hangDump) return rerunNamingHangs({ ...request, remainingMs }, outcomes);
    host.logger.info(`${project.name}: the tests did not finish; running them again with the hang dump to name the hung test.`);
    const { assembly: _direct, ...rest } = request;
    return runMtpProject({ ...rest, kind: 'mtp-dotnet-test', remainingMs, watchHangs: true }, outcomes);
  }
  if (run.timedOut) return timedOutRun(request, trx, output, outcomes);
  const code = run.exitCode;
  if (trx.length > 0) {
    const result = resultFromTrx(project, trx, output, outcomes);
    if (code === 0 || code === 1) return result;
    return withExtraFailure(result, project, `The xunit v3 test application ${ended(code)}. See the output tail.`, output);
  }
  const test = crashingTestIn(output);
  const where = test ? ` while running ${test}` : '';
  return failedRun(
    project,
    `The xunit v3 test application ${ended(code)}${where} and wrote no results; see the output tail.`,
    output,
    false,
  );
}

/** Marks results read from the console of a run stopped before it wrote its report. */
const STOPPED_LABEL = '(read from the console output: the test process was stopped before it wrote its report)';

/**
 * The run again with xunit's long-running detection within the time left less the margin; the first test it
 * names stops the run (with all its processes), and that test is the failure, with those that failed before.
 */
async function rerunNamingHangs(request: XunitProjectRun, outcomes: Map<string, TestOutcomeKind>): Promise<TestResult> {
  const { host, project } = request;
  host.logger.info(`${project.name}: the tests did not finish; running them again with long-running detection to name the hung test.`);
  // xunit checks every <seconds> and reports a test that has run at least that long: it names a hung
  // test between one and two such periods after the test started, so the period is half the hang timeout.
  const seconds = Math.max(1, Math.floor((hangTimeoutSeconds(rerunHangMs(request.remainingMs, request.expectedMs)) ?? 2) / 2));
  const resultsDir = resultsDirOf(host, project);
  const stop = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
  let tail = '';
  const args = [
    ...xunitArgs(request.assembly, path.join(resultsDir, `${project.name}.trx`), request.filterArgs),
    '-longRunning',
    String(seconds),
  ];
  const run = await runDotnet(host, args, {
    cwd: request.cwd,
    timeoutMs: request.remainingMs,
    signal,
    env: testEnv(process.platform, host.workspaceRoot),
    onOutput: (chunk, stream) => {
      request.onOutput?.(chunk, stream);
      tail = (tail + chunk).slice(-4000);
      if (longRunningTests(tail)) stop.abort();
    },
  });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trx = await takeTrxReports(host, await trxFilesIn(host, resultsDir), project.name);
  const hung = run.cancelled ? longRunningTests(output) : null;
  if (!hung) {
    if (run.timedOut) return timedOutRun(request, trx, output, outcomes);
    // It finished this time (a slow run, not a hang): its report is the result.
    if (trx.length > 0) return resultFromTrx(project, trx, output, outcomes);
    return failedRun(
      project,
      `The xunit v3 test application ${ended(run.exitCode)} and wrote no results; see the output tail.`,
      output,
      false,
    );
  }
  const failedBefore = nativeFailures(output, STOPPED_LABEL).filter((failure) => !hung.names.includes(failure.testName));
  for (const name of [...failedBefore.map((failure) => failure.testName), ...hung.names]) outcomes.set(name, 'failed');
  const partial: TestResult = {
    success: false,
    total: failedBefore.length,
    passed: 0,
    failed: failedBefore.length,
    skipped: 0,
    failures: failedBefore,
    durationMs: 0,
  };
  const message = `${hung.names.join(', ')} hung: it ran for ${hung.ranFor} without finishing, so xunit's long-running detection named it and Ironbees stopped the test process. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.`;
  return withHungTests(partial, project, hung.names, message, output);
}

function ended(code: number | null): string {
  return code === null ? 'was killed by a signal (the test process crashed)' : `exited with code ${code}`;
}
