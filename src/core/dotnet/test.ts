// Runs test projects (already built), each the way its platform expects (see test-platform.ts), and merges
// their results into one TestResult. Projects run two at a time under one shared deadline: the time limit
// is for the whole test phase.

import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { Host, RunResult } from '../host';
import type { TestResult } from '../model';
import { IRONBEES_TMP_DIR } from './build';
import { runDotnet, runsSandboxed, testEnv } from './dotnet-cli';
import { explainSandboxFailures } from './sandbox-refusals';
import { describeSkipped, frameworkPlanFor } from './target-frameworks';
import { blameHang } from './mtp-output';
import type { TestRunnerFacts } from './project-file';
import { filterArgsFor, realTestNames } from './failing-first';
import { runMtpProject } from './test-mtp';
import { runXunitProject } from './test-xunit';
import { findTestMode, runKindOf } from './test-platform';
import type { TestModeInfo } from './test-platform';
import { hangBudget, hangTimeoutSeconds, rerunHangMs } from './hang-budget';
import { failedRun, resultFromTrx, takeTrxReports, withHungTests } from './test-report';
import type { TestProjectRef as ProjectRef, TrxReport } from './test-report';
import { mergeTestResults } from './trx-parser';
import type { TestOutcomeKind } from './trx-parser';
import type { VstestConsole } from './vstest-console';

export interface TestProjectRef extends ProjectRef {
  /** How the project asks to be run (absent: VSTest). */
  testRunner?: TestRunnerFacts;
}

export interface TestRequest {
  host: Host;
  projects: readonly TestProjectRef[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** How many test projects run at once. */
  concurrency?: number;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** The folder whose global.json decides the test mode (the build target's); the workspace root by default. */
  modeFrom?: string;
  /**
   * Failing-first: run only these tests (project path → test names). A project absent from the map, or
   * whose tests cannot be filtered exactly, is not run.
   */
  only?: ReadonlyMap<string, readonly string[]>;
  /**
   * Project path → the assemblies its build wrote (see built-assemblies.ts). A project with exactly one
   * runs from it without `dotnet test`; the others (unknown, multi-targeted) run through `dotnet test`.
   */
  assemblies?: ReadonlyMap<string, readonly string[]>;
  /** Project path → how long its tests took last time (hang-budget.ts gives a healthy run room by it). */
  expectedMs?: ReadonlyMap<string, number>;
  /**
   * The SDK's vstest.console (vstest-console.ts): a project run from its assembly starts it directly,
   * without the dotnet CLI's process in between. Absent: `dotnet vstest`.
   */
  vstestConsole?: VstestConsole | null;
}

export interface TestRun {
  result: TestResult;
  /** Every test that ran, by name, with how it ended: tells "fixed" from "not run this time". */
  outcomes: Map<string, TestOutcomeKind>;
  /** Project path → the tests that failed in it (for failing-first next time). */
  failedByProject: Map<string, string[]>;
  /** The projects that ran (all of them, unless `only` narrowed the run). */
  ran: string[];
  /** Project path → the tests that ran in it (passed or failed; skipped ones and run-level failures left out). */
  ranByProject: Map<string, string[]>;
  /** Project path → how long its whole test run took (projects run unfiltered and not stopped at the limit). */
  durationByProject: Map<string, number>;
}

const DEFAULT_CONCURRENCY = 2;

/** vstest prints one "Results File: <path>" line per TRX it writes (one per target framework). */
function resultFilesIn(output: string): string[] {
  return [...output.matchAll(/^\s*Results File:\s*(.+\.trx)\s*$/gm)].map((match) => (match[1] ?? '').trim());
}

/** The TRX files of one run: named in the output, or found by their unique prefix if the output lost them. */
async function findTrxFiles(host: Host, output: string, resultsDir: string, prefix: string): Promise<string[]> {
  const named = resultFilesIn(output).filter((file) => path.basename(file).startsWith(prefix));
  if (named.length > 0) return named;
  const listed = await host.fs.listFiles(resultsDir, { maxFiles: 5_000 }).catch(() => [] as string[]);
  return listed
    .filter((file) => !file.includes('/') && file.startsWith(prefix) && file.endsWith('.trx'))
    .map((file) => path.join(resultsDir, file));
}

interface VstestAttempt {
  run: RunResult;
  output: string;
  trxReports: TrxReport[];
}

/**
 * VSTest: `dotnet vstest <assembly>` when the build named it (no second MSBuild evaluation), else
 * `dotnet test <project> --no-build`; a TRX either way. No blame collector: Ironbees enforces the time
 * limit, and only a run that reaches it runs again with blame-hang, to name the hung test (hang-budget.ts).
 */
async function testVstestProject(
  request: TestRequest,
  project: TestProjectRef,
  mode: TestModeInfo,
  deadline: number,
  outcomes: Map<string, TestOutcomeKind>,
  filterArgs: readonly string[],
): Promise<TestResult> {
  // A multi-targeted project is tested on the frameworks whose runtime is installed; the others are named.
  const plan = await frameworkPlanFor(request.host, project.absPath);
  const skippedFrameworks = describeSkipped(project.name, plan.skipped);
  if (plan.skipped.length > 0 && plan.run.length === 0) return { ...mergeTestResults([]), skippedFrameworks };
  // A run-settings file is handed to VSTest by `dotnet test` only: such a project keeps running through it.
  const assembly = plan.skipped.length === 0 && !project.testRunner?.runSettings ? await builtAssembly(request, project) : null;
  // The blame-hang re-run (rare) keeps `dotnet vstest`: its hang report is what blameHang() reads, tested with real hangs.
  const attempt = (blame: readonly string[], limitMs: number): Promise<VstestAttempt> =>
    runVstestOnce(request, project, mode, {
      assembly,
      frameworks: plan.skipped.length > 0 ? plan.run : null,
      filterArgs,
      blame,
      limitMs,
      console: blame.length === 0 ? (request.vstestConsole ?? null) : null,
    });
  const expectedMs = request.expectedMs?.get(project.absPath);
  const budget = hangBudget(Math.max(1, deadline - Date.now()), true, expectedMs);
  let { run, output, trxReports } = await attempt([], budget.firstRunMs);
  if (run.timedOut && budget.rerun) {
    const left = Math.max(1, deadline - Date.now());
    request.host.logger.info(`${project.name}: the tests did not finish; running them again with blame-hang to name the hung test.`);
    const hangMs = rerunHangMs(left, expectedMs);
    ({ run, output, trxReports } = await attempt(assembly ? blameHangConsoleArgs(hangMs) : blameHangArgs(hangMs), left));
  }
  if (run.timedOut) {
    const seconds = Math.round(request.timeoutMs / 1000);
    return failedRun(
      project,
      `The tests did not finish within ${seconds} s and were stopped with all their processes. A test may hang (a deadlock, a wait for input or network).`,
      output,
      true,
    );
  }
  const hang = blameHang(output);
  if (hang) {
    for (const name of hang.running) outcomes.set(name, 'failed');
    return withHangFailure(trxReports.length > 0 ? resultFromTrx(project, trxReports, output, outcomes) : null, project, hang, output);
  }
  if (trxReports.length === 0) {
    // No exit code: a signal ended it (a test host that crashed hard takes `dotnet test` with it).
    const ended = run.exitCode === null ? 'was killed by a signal (the test host crashed)' : `exited with code ${run.exitCode}`;
    return failedRun(project, `dotnet test ${ended} and wrote no results; see the output tail.`, output, false);
  }
  const result = resultFromTrx(project, trxReports, output, outcomes);
  if (skippedFrameworks.length > 0) result.skippedFrameworks = skippedFrameworks;
  return result;
}

interface VstestRunShape {
  /** The built assembly (`dotnet vstest`), or null (`dotnet test <project> --no-build`). */
  assembly: string | null;
  /** The frameworks to test when some are skipped; null: all of them. */
  frameworks: readonly string[] | null;
  filterArgs: readonly string[];
  /** blame-hang arguments in the syntax of the command (none on a first run). */
  blame: readonly string[];
  limitMs: number;
  /** With an assembly: start the SDK's vstest.console directly (`dotnet exec`) instead of `dotnet vstest`. */
  console?: VstestConsole | null;
}

/** The arguments of one VSTest run writing TRX files named `<prefix>*.trx` into `resultsDir`. */
export function vstestArgs(project: TestProjectRef, shape: Omit<VstestRunShape, 'limitMs'>, resultsDir: string, prefix: string): string[] {
  if (shape.assembly) {
    return [
      ...(shape.console ? ['exec', shape.console.dll] : ['vstest']),
      shape.assembly,
      `--logger:trx;LogFileName=${prefix}.trx`,
      `--ResultsDirectory:${resultsDir}`,
      ...vstestConsoleArgs(shape.filterArgs),
      ...shape.blame,
    ];
  }
  const args = [
    'test',
    project.absPath,
    '--no-build',
    '--no-restore',
    '--nologo',
    '--logger',
    `trx;LogFilePrefix=${prefix}`,
    '--results-directory',
    resultsDir,
    ...shape.filterArgs,
    ...shape.blame,
  ];
  if (shape.frameworks) args.push(`-p:TargetFrameworks=${shape.frameworks.join('%3B')}`);
  return args;
}

async function runVstestOnce(
  request: TestRequest,
  project: TestProjectRef,
  mode: TestModeInfo,
  shape: VstestRunShape,
): Promise<VstestAttempt> {
  const { host } = request;
  const resultsDir = path.join(host.workspaceRoot, IRONBEES_TMP_DIR, 'test-results');
  // A prefix, not a file name: a multi-targeted project writes one TRX per framework (`<prefix>_<tfm>_<time>.trx`).
  const prefix = `${project.name}-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const run = await runDotnet(host, vstestArgs(project, shape, resultsDir, prefix), {
    cwd: mode.cwd,
    timeoutMs: shape.limitMs,
    signal: request.signal,
    env: { ...testEnv(process.platform, host.workspaceRoot), ...(shape.assembly && shape.console ? shape.console.env : {}) },
    onOutput: request.onOutput,
  });
  if (run.cancelled) request.signal?.throwIfAborted();
  const output = run.stderr ? `${run.stdout}\n${run.stderr}` : run.stdout;
  const trxReports = await takeTrxReports(host, await findTrxFiles(host, output, resultsDir, prefix), project.name);
  return { run, output, trxReports };
}

/** blame-hang stopped a test: the hung test (when VSTest names it) is the failure, not "the run was aborted". */
function withHangFailure(
  partial: TestResult | null,
  project: TestProjectRef,
  hang: { seconds: string; running: string[] },
  output: string,
): TestResult {
  const what = hang.running.length > 0 ? `${hang.running.join(', ')} hung` : 'A test hung (VSTest did not name it)';
  const message = `${what}: nothing finished for ${hang.seconds}, so blame-hang stopped the test host. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.`;
  return withHungTests(partial, project, hang.running, message, output);
}

/** The project's one built assembly, when the build named it and it is there; null otherwise. */
export async function builtAssembly(request: TestRequest, project: TestProjectRef): Promise<string | null> {
  // IRONBEES_TEST_FROM_ASSEMBLY=0: always `dotnet test` (the bench's side-by-side, and a way out if a setup needs it).
  if (process.env.IRONBEES_TEST_FROM_ASSEMBLY === '0') return null;
  const paths = request.assemblies?.get(project.absPath) ?? [];
  const only = paths.length === 1 ? paths[0] : undefined;
  return only && (await request.host.fs.exists(only)) ? only : null;
}

/** `dotnet test` filter arguments (`--filter <expr>`) in vstest.console's own syntax. */
function vstestConsoleArgs(filterArgs: readonly string[]): string[] {
  const at = filterArgs.indexOf('--filter');
  return at >= 0 && filterArgs[at + 1] ? [`--TestCaseFilter:${filterArgs[at + 1]}`] : [];
}

/** VSTest kills a test that runs longer than this and names it: the rest of the time, less the margin. */
export function blameHangArgs(remainingMs: number): string[] {
  const seconds = hangTimeoutSeconds(remainingMs);
  return seconds === null ? [] : ['--blame-hang', '--blame-hang-timeout', `${seconds}s`, '--blame-hang-dump-type', 'none'];
}

/** The same blame-hang, in vstest.console's syntax (`dotnet vstest`). */
export function blameHangConsoleArgs(remainingMs: number): string[] {
  const seconds = hangTimeoutSeconds(remainingMs);
  return seconds === null ? [] : [`--Blame:CollectHangDump;TestTimeout=${seconds}s;HangDumpType=None`];
}

async function testOneProject(
  request: TestRequest,
  project: TestProjectRef,
  mode: TestModeInfo,
  deadline: number,
  outcomes: Map<string, TestOutcomeKind>,
  filterArgs: readonly string[],
): Promise<TestResult> {
  const kind = runKindOf(mode.mode, project.testRunner);
  if (kind === 'vstest') return testVstestProject(request, project, mode, deadline, outcomes, filterArgs);
  if (kind === 'vstest-in-mtp') {
    return failedRun(
      project,
      `${project.name} uses VSTest, but global.json selects Microsoft.Testing.Platform as the test runner, and in that mode dotnet test runs no VSTest project. Opt the project into the platform (e.g. <EnableMSTestRunner>true</EnableMSTestRunner> for MSTest, <UseMicrosoftTestingPlatformRunner>true</UseMicrosoftTestingPlatformRunner> for xunit v3) or remove "test.runner" from global.json.`,
      '',
      false,
    );
  }
  // A project that opted into the platform is its own test application; xunit v3 without the opt-in is
  // one too, with xunit's own runner and options (test-xunit.ts).
  const assembly = (await builtAssembly(request, project)) ?? undefined;
  const remainingMs = Math.max(1, deadline - Date.now());
  const common = {
    host: request.host,
    project,
    cwd: mode.cwd,
    remainingMs,
    expectedMs: request.expectedMs?.get(project.absPath),
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    onOutput: request.onOutput,
    filterArgs,
  };
  if (assembly && project.testRunner?.xunitV3 && !project.testRunner.mtpRunner) return runXunitProject({ ...common, assembly }, outcomes);
  return runMtpProject({ ...common, kind, assembly: project.testRunner?.mtpRunner ? assembly : undefined }, outcomes);
}

/** Runs the projects' tests (already built). */
export async function runTests(request: TestRequest): Promise<TestRun> {
  request.signal?.throwIfAborted();
  const startedAt = Date.now();
  const deadline = startedAt + request.timeoutMs;
  const outcomes = new Map<string, TestOutcomeKind>();
  const mode = await findTestMode(request.host, request.modeFrom ?? request.host.workspaceRoot);
  const planned: Array<{ project: TestProjectRef; filterArgs: string[] }> = [];
  for (const project of request.projects) {
    if (!request.only) {
      planned.push({ project, filterArgs: [] });
      continue;
    }
    const filterArgs = filterArgsFor(
      runKindOf(mode.mode, project.testRunner),
      project.testRunner,
      realTestNames(request.only.get(project.absPath) ?? []),
    );
    if (filterArgs) planned.push({ project, filterArgs });
  }
  const results: TestResult[] = new Array(planned.length);
  const ranByProject = new Map<string, string[]>();
  const durationByProject = new Map<string, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < planned.length) {
      const index = next++;
      const { project, filterArgs } = planned[index] as (typeof planned)[number];
      // Each project's own outcomes first: which tests ran where is what a later run is held to.
      const own = new Map<string, TestOutcomeKind>();
      const projectStartedAt = Date.now();
      const projectResult = await testOneProject(request, project, mode, deadline, own, filterArgs);
      results[index] = projectResult;
      if (!request.only && !projectResult.timedOut) durationByProject.set(project.absPath, Date.now() - projectStartedAt);
      for (const [name, kind] of own) if (outcomes.get(name) !== 'failed') outcomes.set(name, kind);
      ranByProject.set(
        project.absPath,
        [...own].filter(([name, kind]) => kind !== 'skipped' && !name.startsWith('[test run]')).map(([name]) => name),
      );
    }
  };
  const concurrency = Math.max(1, Math.min(request.concurrency ?? DEFAULT_CONCURRENCY, planned.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  const result = mergeTestResults(results);
  result.durationMs = Date.now() - startedAt;
  if (runsSandboxed(request.host)) explainSandboxFailures(result.failures);
  const failedByProject = new Map<string, string[]>();
  planned.forEach(({ project }, index) =>
    failedByProject.set(
      project.absPath,
      (results[index]?.failures ?? []).map((failure) => failure.testName),
    ),
  );
  return { result, outcomes, failedByProject, ran: planned.map(({ project }) => project.absPath), ranByProject, durationByProject };
}
