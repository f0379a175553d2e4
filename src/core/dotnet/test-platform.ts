// Which test platform runs a test project, and what its exit codes mean. Two platforms exist:
//  - VSTest: `dotnet test <project> --logger trx` (the default);
//  - Microsoft.Testing.Platform (MTP): the test project is an executable. The .NET 10 SDK runs it through
//    `dotnet test --project` when global.json says `"test": { "runner": "Microsoft.Testing.Platform" }`;
//    that mode takes other arguments (no --logger; --report-trx comes from the TrxReport extension).
// A project that opts into MTP (EnableMSTestRunner, UseMicrosoftTestingPlatformRunner, ...) while the SDK is
// in its VSTest mode cannot run through `dotnet test` on .NET 10 (MTP 2 refuses the VSTest target), so it
// runs directly: `dotnet run --no-build`, with the platform's own arguments.

import * as path from 'node:path';
import type { Host } from '../host';
import { VSTEST_RUNNER } from './project-file';
import type { TestRunnerFacts } from './project-file';

export type DotnetTestMode = 'vstest' | 'mtp';

export interface TestModeInfo {
  mode: DotnetTestMode;
  /** Where `dotnet` must start to see that global.json (the workspace root when there is none). */
  cwd: string;
}

/** How one test project is run. */
export type TestRunKind =
  /** `dotnet test <project> --logger trx` */
  | 'vstest'
  /** `dotnet test --project <project>` in the SDK's MTP mode */
  | 'mtp-dotnet-test'
  /** `dotnet run --project <project> --no-build -- <MTP arguments>`: MTP in a VSTest-mode workspace */
  | 'mtp-direct'
  /** A VSTest project in an MTP-mode workspace: `dotnet test` refuses it; `dotnet vstest` on its assembly runs it. */
  | 'vstest-in-mtp';

const decoder = new TextDecoder();

/**
 * The SDK's `dotnet test` mode, from the nearest global.json between `fromDir` and the workspace root
 * (dotnet reads the first global.json above its working folder). Never looks outside the workspace.
 */
export async function findTestMode(host: Host, fromDir: string): Promise<TestModeInfo> {
  const root = path.resolve(host.workspaceRoot);
  let dir = path.resolve(fromDir);
  if (path.relative(root, dir).startsWith('..')) dir = root;
  for (;;) {
    const bytes = await host.fs.readFile(path.join(dir, 'global.json')).catch(() => null);
    if (bytes !== null)
      return { mode: runnerIn(decoder.decode(bytes), host) === 'microsoft.testing.platform' ? 'mtp' : 'vstest', cwd: dir };
    if (dir === root) return { mode: 'vstest', cwd: root };
    const parent = path.dirname(dir);
    if (parent === dir) return { mode: 'vstest', cwd: root };
    dir = parent;
  }
}

function runnerIn(globalJson: string, host: Host): string {
  try {
    const parsed = JSON.parse(globalJson.replace(/^\uFEFF/, '')) as { test?: { runner?: unknown } };
    const runner = parsed.test?.runner;
    return typeof runner === 'string' ? runner.trim().toLowerCase() : '';
  } catch (error) {
    // dotnet itself fails on a broken global.json; that error comes from the build, with its location.
    host.logger.warn(`global.json is not valid JSON (${String(error)}); assuming the VSTest mode of dotnet test.`);
    return '';
  }
}

export function runKindOf(mode: DotnetTestMode, facts: TestRunnerFacts = VSTEST_RUNNER): TestRunKind {
  if (mode === 'mtp') return facts.mtpRunner || facts.xunitV3 ? 'mtp-dotnet-test' : 'vstest-in-mtp';
  return facts.mtpRunner ? 'mtp-direct' : 'vstest';
}

/** The MTP arguments that write a TRX into `resultsDir`, or none when the project cannot write one. */
export function mtpReportArgs(facts: TestRunnerFacts = VSTEST_RUNNER): string[] {
  if (facts.xunitV3 && !facts.trxReport) return ['--report-xunit-trx'];
  if (facts.trxReport) return ['--report-trx'];
  return [];
}

/** Microsoft.Testing.Platform's documented exit codes (learn.microsoft.com: "Microsoft.Testing.Platform exit codes"). */
export const MTP_EXIT_CODES: Readonly<Record<number, string>> = {
  0: 'all tests passed',
  1: 'an unknown error',
  2: 'at least one test failed',
  3: 'the test session was aborted (a time limit or a cancellation)',
  4: 'the setup of the test extensions is invalid',
  5: 'the command-line arguments were invalid for this test application',
  6: 'a feature the platform does not implement was used',
  7: 'the test session did not complete: the test process likely crashed',
  8: 'zero tests ran',
  9: 'fewer tests ran than the minimum expected',
  10: 'the test framework could not run the tests for a reason outside the tests (e.g. a fixture could not be created)',
  11: 'the test process exited because the process it depends on exited',
  12: 'the client supports none of the protocol versions of the test application',
  13: 'the run stopped after the maximum number of failed tests',
};

export function describeMtpExit(code: number | null): string {
  if (code === null) return 'the test application ended without an exit code';
  const meaning = MTP_EXIT_CODES[code];
  return meaning
    ? `${meaning} (Microsoft.Testing.Platform exit code ${code})`
    : `exit code ${code}, which Microsoft.Testing.Platform does not document`;
}
