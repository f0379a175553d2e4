// An xunit v3 test project that did not opt into Microsoft.Testing.Platform's runner is an executable
// with xunit's own in-process runner: started directly (`dotnet exec <dll>`) it runs its tests and writes
// a TRX with `-result-trx <file>`, without the second MSBuild evaluation `dotnet test --project` costs.
// Its exit code is 0 when every test passed and 1 when one failed; anything else, or no report, is a
// run-level failure. MTP's options (`--report-xunit-trx`, `--hangdump`) are unknown to that runner, so a
// run that reaches Ironbees' limit is named through `dotnet test` with the hang dump, when the project
// has that extension.

import * as path from 'node:path';
import type { TestResult } from '../model';
import { runDotnet, testEnv } from './dotnet-cli';
import { hangBudget } from './hang-budget';
import { crashingTestIn } from './mtp-output';
import { resultsDirOf, runMtpProject, timedOutRun, withExtraFailure } from './test-mtp';
import type { MtpProjectRun } from './test-mtp';
import { dropFiles, failedRun, resultFromTrx, takeTrxReports, trxFilesIn } from './test-report';
import type { TestOutcomeKind } from './trx-parser';

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
  const budget = hangBudget(request.remainingMs, project.testRunner?.hangDump === true);
  const run = await runDotnet(host, xunitArgs(request.assembly, path.join(resultsDir, `${project.name}.trx`), request.filterArgs), {
    cwd: request.cwd,
    timeoutMs: budget.firstRunMs,
    signal: request.signal,
    env: testEnv(),
    onOutput: request.onOutput,
  });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trx = await takeTrxReports(host, await trxFilesIn(host, resultsDir), project.name);
  if (run.timedOut && budget.rerun) {
    host.logger.info(`${project.name}: the tests did not finish; running them again with the hang dump to name the hung test.`);
    const { assembly: _direct, ...rest } = request;
    const remainingMs = Math.max(1, deadline - Date.now());
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

function ended(code: number | null): string {
  return code === null ? 'was killed by a signal (the test process crashed)' : `exited with code ${code}`;
}
