// How a Microsoft.Testing.Platform project's run becomes a TestResult: the report when there is one, the
// documented exit code for what a report cannot say (a crash, zero tests), the console only as a labelled
// last resort, and a hang as a timed-out failure. The test application is scripted; the runner is real.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunOptions, RunResult } from '../../../src/core/host';
import { CONSOLE_LABEL } from '../../../src/core/dotnet/mtp-output';
import { blameHangArgs, runTests } from '../../../src/core/dotnet/test';
import type { TestProjectRef } from '../../../src/core/dotnet/test';
import type { FakeTest } from './fake-dotnet';
import { trxOf } from './fake-dotnet';
import { createMemoryHost } from '../../support/memory-host';
import type { MemoryHost } from '../../support/memory-host';

interface Reply {
  exitCode: number | null;
  stdout?: string;
  stderr?: string;
  /** Written as a TRX into --results-directory when the run asked for a report. */
  trx?: FakeTest[];
  timedOut?: boolean;
  /** Other files the run leaves in --results-directory (name → text). */
  files?: Record<string, string>;
}

const MTP_GLOBAL = '{ "test": { "runner": "Microsoft.Testing.Platform" } }';
const MSTEST = { mtpRunner: true, dotnetTestSupport: false, xunitV3: false, trxReport: true, hangDump: false, runSettings: false };
const NUNIT_MTP = { mtpRunner: true, dotnetTestSupport: false, xunitV3: false, trxReport: false, hangDump: false, runSettings: false };

function scripted(host: MemoryHost, replies: Reply[]): Array<{ args: string[]; cwd: string; timeoutMs: number }> {
  const calls: Array<{ args: string[]; cwd: string; timeoutMs: number }> = [];
  (host.process as { run: (command: string, args: readonly string[], options: RunOptions) => Promise<RunResult> }).run = async (
    _command,
    args,
    options,
  ) => {
    calls.push({ args: [...args], cwd: options.cwd ?? '', timeoutMs: options.timeoutMs });
    const reply = replies.shift();
    if (!reply) throw new Error(`unexpected call: ${args.join(' ')}`);
    const dir = args[args.indexOf('--results-directory') + 1] ?? '';
    if (reply.trx && args.some((arg) => arg.startsWith('--report-')))
      await host.fs.writeFile(path.join(dir, 'Tests_net10.0_x64.trx'), trxOf(reply.trx));
    // xunit v3's own runner: `-result-trx <file>`.
    const nativeTrx = args.indexOf('-result-trx');
    if (reply.trx && nativeTrx >= 0) await host.fs.writeFile(args[nativeTrx + 1] ?? '', trxOf(reply.trx));
    for (const [name, text] of Object.entries(reply.files ?? {})) await host.fs.writeFile(path.join(dir, name), text);
    return {
      exitCode: reply.exitCode,
      stdout: reply.stdout ?? '',
      stderr: reply.stderr ?? '',
      durationMs: 5,
      timedOut: reply.timedOut ?? false,
      cancelled: false,
    };
  };
  return calls;
}

function project(host: MemoryHost, name: string, testRunner = MSTEST): TestProjectRef {
  return { absPath: path.join(host.workspaceRoot, 'tests', name, `${name}.csproj`), name, testRunner };
}

const crashOutput = readFileSync(path.resolve(__dirname, '../../fixtures/mtp-output/mstest-failfast.txt'), 'utf8');

describe('running Microsoft.Testing.Platform test projects', () => {
  it('in the SDK MTP mode: dotnet test --project with the TRX report, from the global.json folder; results from the TRX', async () => {
    const host = createMemoryHost({ 'app/global.json': MTP_GLOBAL });
    const calls = scripted(host, [
      {
        exitCode: 2,
        trx: [
          { name: 'A.Passes', outcome: 'Passed' },
          { name: 'A.Fails', outcome: 'Failed', message: 'expected 6' },
        ],
      },
    ]);
    const run = await runTests({
      host,
      projects: [project(host, 'Ledger.MSTests')],
      timeoutMs: 60_000,
      modeFrom: path.join(host.workspaceRoot, 'app'),
    });
    const resultsDir = calls[0]?.args[calls[0].args.indexOf('--results-directory') + 1] ?? '';
    assert.deepEqual(calls[0]?.args, [
      'test',
      '--project',
      path.join(host.workspaceRoot, 'tests/Ledger.MSTests/Ledger.MSTests.csproj'),
      '--no-build',
      '--no-restore',
      '--results-directory',
      resultsDir,
      '--report-trx',
      '--no-progress',
      '--no-ansi',
    ]);
    assert.equal(calls[0]?.cwd, path.join(host.workspaceRoot, 'app'));
    assert.match(resultsDir, /\.ironbees\/tmp\/test-results\/Ledger\.MSTests-[0-9a-f]{8}$/);
    assert.deepEqual({ total: run.result.total, passed: run.result.passed, failed: run.result.failed }, { total: 2, passed: 1, failed: 1 });
    assert.deepEqual(
      run.result.failures.map((failure) => [failure.testName, failure.message]),
      [['A.Fails', 'expected 6']],
    );
    assert.deepEqual(
      [...run.outcomes],
      [
        ['A.Passes', 'passed'],
        ['A.Fails', 'failed'],
      ],
    );
    assert.deepEqual(
      [...host.files.keys()].filter((file) => file.endsWith('.trx')),
      [],
      'the report is read once and removed',
    );
  });

  it('from the built assembly: an MTP project that opted in is run as the application it is (dotnet exec), xunit v3 without the opt-in too, with its own runner and report option', async () => {
    const host = createMemoryHost({
      'global.json': MTP_GLOBAL,
      'tests/Ledger.MSTests/bin/Ledger.MSTests.dll': 'MZ',
      'tests/Ledger.XunitTests/bin/Ledger.XunitTests.dll': 'MZ',
    });
    const calls = scripted(host, [
      {
        exitCode: 2,
        trx: [
          { name: 'A.Passes', outcome: 'Passed' },
          { name: 'A.Fails', outcome: 'Failed', message: 'expected 6' },
        ],
      },
      { exitCode: 0, trx: [{ name: 'X.Passes', outcome: 'Passed' }] },
    ]);
    const xunit = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: false, runSettings: false };
    const mstest = project(host, 'Ledger.MSTests');
    const xunitProject = project(host, 'Ledger.XunitTests', xunit);
    const dll = (name: string): string => path.join(host.workspaceRoot, 'tests', name, 'bin', `${name}.dll`);
    const assemblies = new Map([
      [mstest.absPath, [dll('Ledger.MSTests')]],
      [xunitProject.absPath, [dll('Ledger.XunitTests')]],
    ]);
    const run = await runTests({ host, projects: [mstest, xunitProject], timeoutMs: 60_000, assemblies, concurrency: 1 });
    const resultsDir = calls[0]?.args[calls[0].args.indexOf('--results-directory') + 1] ?? '';
    assert.deepEqual(calls[0]?.args, [
      'exec',
      dll('Ledger.MSTests'),
      '--results-directory',
      resultsDir,
      '--report-trx',
      '--no-progress',
      '--no-ansi',
    ]);
    const xunitTrx = calls[1]?.args[5] ?? '';
    assert.deepEqual(calls[1]?.args, ['exec', dll('Ledger.XunitTests'), '-noLogo', '-noColor', '-result-trx', xunitTrx]);
    assert.match(xunitTrx, /\.ironbees\/tmp\/test-results\/Ledger\.XunitTests-[0-9a-f]{8}\/Ledger\.XunitTests\.trx$/);
    assert.deepEqual({ total: run.result.total, passed: run.result.passed, failed: run.result.failed }, { total: 3, passed: 2, failed: 1 });
    assert.deepEqual(
      [...host.files.keys()].filter((file) => file.endsWith('.trx')),
      [],
      'the reports are read once and removed',
    );
  });

  it('xunit v3 on its own runner: exit code 1 with a report is the report; a failing-first filter in its syntax; no report is a run failure', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL, 'tests/X.Tests/bin/X.Tests.dll': 'MZ' });
    const xunit = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: false, runSettings: false };
    const xunitProject = project(host, 'X.Tests', xunit);
    const assemblies = new Map([[xunitProject.absPath, [path.join(host.workspaceRoot, 'tests/X.Tests/bin/X.Tests.dll')]]]);
    const calls = scripted(host, [
      { exitCode: 1, trx: [{ name: 'X.T.Fails(a: 1)', outcome: 'Failed', message: 'no' }] },
      { exitCode: 134, stdout: 'Process terminated.\n   at X.T.Crashes() in /ws/T.cs:line 4\n' },
    ]);
    const only = new Map([[xunitProject.absPath, ['X.T.Fails(a: 1)', 'X.T.Other']]]);
    const first = await runTests({ host, projects: [xunitProject], timeoutMs: 60_000, assemblies, only });
    assert.deepEqual(calls[0]?.args.slice(6), ['-method', 'X.T.Fails', '-method', 'X.T.Other']);
    assert.deepEqual(
      { total: first.result.total, failed: first.result.failed, names: first.result.failures.map((failure) => failure.testName) },
      { total: 1, failed: 1, names: ['X.T.Fails(a: 1)'] },
    );
    const second = await runTests({ host, projects: [xunitProject], timeoutMs: 60_000, assemblies });
    assert.deepEqual(
      second.result.failures.map((failure) => [failure.testName, failure.message]),
      [
        [
          '[test run] X.Tests',
          'The xunit v3 test application exited with code 134 while running X.T.Crashes and wrote no results; see the output tail.',
        ],
      ],
    );
  });

  it('the assembly is used only when the build named exactly one, it exists and no run-settings file needs dotnet test; otherwise dotnet test or dotnet run', async () => {
    const host = createMemoryHost({
      'tests/V.Tests/bin/net8.0/V.Tests.dll': 'MZ',
      'tests/V.Tests/bin/net10.0/V.Tests.dll': 'MZ',
      'tests/R.Tests/bin/R.Tests.dll': 'MZ',
    });
    const calls = scripted(host, [{ exitCode: 0 }, { exitCode: 0, trx: [] }, { exitCode: 0 }]);
    const vstest = { absPath: path.join(host.workspaceRoot, 'tests/V.Tests/V.Tests.csproj'), name: 'V.Tests' };
    const mstest = project(host, 'Ledger.MSTests');
    // RunSettingsFilePath: `dotnet test` hands that file to VSTest; `dotnet vstest` would not.
    const withSettings = {
      absPath: path.join(host.workspaceRoot, 'tests/R.Tests/R.Tests.csproj'),
      name: 'R.Tests',
      testRunner: { ...NUNIT_MTP, mtpRunner: false, runSettings: true },
    };
    const assemblies = new Map([
      [vstest.absPath, ['net8.0', 'net10.0'].map((tfm) => path.join(host.workspaceRoot, `tests/V.Tests/bin/${tfm}/V.Tests.dll`))],
      [mstest.absPath, [path.join(host.workspaceRoot, 'tests/Ledger.MSTests/bin/gone/Ledger.MSTests.dll')]],
      [withSettings.absPath, [path.join(host.workspaceRoot, 'tests/R.Tests/bin/R.Tests.dll')]],
    ]);
    await runTests({ host, projects: [vstest, mstest, withSettings], timeoutMs: 60_000, assemblies, concurrency: 1 });
    assert.deepEqual(
      calls.map((call) => call.args.slice(0, 2)),
      [
        ['test', vstest.absPath],
        ['run', '--project'],
        ['test', withSettings.absPath],
      ],
    );
  });

  it('a crashed test host (exit 7) is a failure naming the test it was running, with the tests that finished', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    scripted(host, [{ exitCode: 7, stdout: crashOutput, trx: [{ name: 'A.Passes', outcome: 'Passed' }] }]);
    const run = await runTests({ host, projects: [project(host, 'Ledger.MSTests')], timeoutMs: 60_000 });
    assert.deepEqual(
      { total: run.result.total, passed: run.result.passed, failed: run.result.failed, success: run.result.success },
      { total: 2, passed: 1, failed: 1, success: false },
    );
    assert.equal(run.result.failures[0]?.testName, '[test run] Ledger.MSTests');
    assert.equal(
      run.result.failures[0]?.message,
      "The test host crashed while running Ledger.MSTests.HangTests.Z_Crashes: the test session did not complete: the test process likely crashed (Microsoft.Testing.Platform exit code 7). Tests that had not run yet were not run. See the output tail for the crash's own message.",
    );
    assert.match(run.result.outputTail ?? '', /boom from test/);
  });

  it('zero tests (exit 8) and an aborted session (exit 3) say so, never a bare "exited with code N"', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    scripted(host, [
      { exitCode: 8, stdout: 'Zero tests ran' },
      { exitCode: 3, trx: [{ name: 'B.Passes', outcome: 'Passed' }] },
    ]);
    const run = await runTests({
      host,
      projects: [project(host, 'Empty.Tests'), project(host, 'B.Tests')],
      timeoutMs: 60_000,
      concurrency: 1,
    });
    assert.deepEqual(
      run.result.failures.map((failure) => [failure.testName, failure.message]),
      [
        [
          '[test run] Empty.Tests',
          'No test ran in Empty.Tests: zero tests ran (Microsoft.Testing.Platform exit code 8). A filter matched nothing, or the project has no tests the framework can discover.',
        ],
        [
          '[test run] B.Tests',
          'The test run did not succeed: the test session was aborted (a time limit or a cancellation) (Microsoft.Testing.Platform exit code 3).',
        ],
      ],
    );
    assert.deepEqual({ total: run.result.total, passed: run.result.passed, failed: run.result.failed }, { total: 3, passed: 1, failed: 2 });
  });

  it('a project without a TRX extension: no report option, the console summary read and labelled as such', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    const console = readFileSync(path.resolve(__dirname, '../../fixtures/mtp-output/ledger-2-failed.txt'), 'utf8');
    const calls = scripted(host, [{ exitCode: 2, stdout: console }]);
    const run = await runTests({ host, projects: [project(host, 'N.Tests', NUNIT_MTP)], timeoutMs: 60_000 });
    assert.equal(
      calls[0]?.args.some((arg) => arg.startsWith('--report')),
      false,
    );
    assert.deepEqual({ total: run.result.total, passed: run.result.passed, failed: run.result.failed }, { total: 6, passed: 4, failed: 2 });
    assert.ok(run.result.failures.every((failure) => failure.message.endsWith(CONSOLE_LABEL)));
  });

  it('a runner that rejects the report option (exit 5) is run again without it, not reported as "exit code 5"', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    const calls = scripted(host, [
      { exitCode: 5, stdout: 'error: unknown option: --report-trx' },
      { exitCode: 0, stdout: '  total: 3\n  failed: 0\n  succeeded: 3\n  skipped: 0\n' },
    ]);
    const run = await runTests({ host, projects: [project(host, 'Ledger.MSTests')], timeoutMs: 60_000 });
    assert.equal(calls.length, 2);
    assert.ok(calls[0]?.args.includes('--report-trx'));
    assert.equal(calls[1]?.args.includes('--report-trx'), false);
    assert.deepEqual(
      { success: run.result.success, total: run.result.total, passed: run.result.passed },
      { success: true, total: 3, passed: 3 },
    );
  });

  it('a hang stopped at the time limit is a timed-out failure; MTP in a VSTest-mode workspace runs directly', async () => {
    const host = createMemoryHost({});
    const calls = scripted(host, [{ exitCode: null, timedOut: true, trx: [] }]);
    const run = await runTests({ host, projects: [project(host, 'Ledger.MSTests')], timeoutMs: 30_000 });
    assert.deepEqual(calls[0]?.args.slice(0, 6), [
      'run',
      '--project',
      path.join(host.workspaceRoot, 'tests/Ledger.MSTests/Ledger.MSTests.csproj'),
      '--no-build',
      '--no-restore',
      '--',
    ]);
    assert.equal(run.result.timedOut, true);
    assert.equal(
      run.result.failures[0]?.message,
      'The tests did not finish within 30 s and were stopped with all their processes. A test may hang (a deadlock, a wait for input or network). Microsoft.Testing.Platform names a hung test only with the Microsoft.Testing.Extensions.HangDump package; add it to Ledger.MSTests to see which test hangs.',
    );
    assert.equal(calls[0]?.args.includes('--hangdump'), false, 'no hang dump option for a project without the extension (exit code 5)');
    assert.deepEqual(
      calls.map((call) => Math.round(call.timeoutMs / 1000)),
      [30],
      'nothing could name the test: one run, with the whole limit',
    );
  });

  it('with the HangDump extension: a run that reaches its share of the limit runs again with the hang dump (the time left less a margin), and the hung test it names is the failure', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    const xunitHang = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: true, runSettings: false };
    const console =
      'failed Ledger.XunitTests.AccountTests.Withdraw (9ms)\n  Assert.Equal() Failure: Values differ\n    at Ledger.XunitTests.AccountTests.Withdraw() in /ws/A.cs:14\n\nTest run summary: Failed!\n  total: 3\n  failed: 1\n  succeeded: 2\n  skipped: 0\n';
    const calls = scripted(host, [
      { exitCode: null, timedOut: true },
      {
        exitCode: 7,
        stdout: console,
        files: {
          'Ledger.XunitTests_9004_hang.log': '[00:00:40] Ledger.XunitTests.HangTests.WaitsForever\n',
          'Ledger.XunitTests_9004_hang.dmp': 'MDMP',
        },
      },
    ]);
    const run = await runTests({ host, projects: [project(host, 'Ledger.XunitTests', xunitHang)], timeoutMs: 60_000 });
    const xunitPath = path.join(host.workspaceRoot, 'tests/Ledger.XunitTests/Ledger.XunitTests.csproj');
    const resultsDir = calls[0]?.args[calls[0].args.indexOf('--results-directory') + 1] ?? '';
    // The first run: no hang dump, and half of the 60 s less the 20 s margin, enforced by Ironbees.
    assert.deepEqual(calls[0]?.args, [
      'test',
      '--project',
      xunitPath,
      '--no-build',
      '--no-restore',
      '--results-directory',
      resultsDir,
      '--report-xunit-trx',
      '--no-progress',
      '--no-ansi',
    ]);
    assert.equal(Math.round((calls[0]?.timeoutMs ?? 0) / 1000), 20);
    assert.equal(calls.length, 2);
    const args = calls[1]?.args ?? [];
    const at = args.indexOf('--hangdump');
    assert.deepEqual([args[at + 1], args[at + 3], args[at + 4]], ['--hangdump-timeout', '--hangdump-type', 'Mini']);
    const hangSeconds = Number(/^(\d+)s$/.exec(args[at + 2] ?? '')?.[1]);
    assert.ok(hangSeconds >= 35 && hangSeconds <= 40, String(hangSeconds));
    assert.deepEqual(
      {
        success: run.result.success,
        total: run.result.total,
        passed: run.result.passed,
        failed: run.result.failed,
        timedOut: run.result.timedOut,
      },
      { success: false, total: 4, passed: 2, failed: 2, timedOut: undefined },
    );
    assert.deepEqual(
      run.result.failures.map((failure) => failure.testName),
      ['Ledger.XunitTests.AccountTests.Withdraw', 'Ledger.XunitTests.HangTests.WaitsForever'],
    );
    assert.equal(
      run.result.failures[1]?.message,
      "Ledger.XunitTests.HangTests.WaitsForever hung: it ran for 00:00:40 without finishing, so Microsoft.Testing.Platform's hang dump stopped the test host. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.",
    );
    assert.match(
      run.result.failures[0]?.message ?? '',
      /Values differ\n\(read from the console output: the test host was stopped before it wrote its report\)$/,
    );
    assert.equal(run.outcomes.get('Ledger.XunitTests.HangTests.WaitsForever'), 'failed');
    assert.deepEqual(
      [...host.files.keys()].filter((file) => /_hang\.(log|dmp)$/.test(file)),
      [],
      'the hang log and the dump are removed',
    );
  });

  it('a VSTest project in an MTP-mode workspace is a clear failure, and dotnet is not run for it', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    const calls = scripted(host, []);
    const run = await runTests({
      host,
      projects: [{ absPath: path.join(host.workspaceRoot, 'V.Tests.csproj'), name: 'V.Tests' }],
      timeoutMs: 30_000,
    });
    assert.equal(calls.length, 0);
    assert.match(
      run.result.failures[0]?.message ?? '',
      /^V\.Tests uses VSTest, but global\.json selects Microsoft\.Testing\.Platform as the test runner/,
    );
  });

  it('VSTest: a run that reaches its share of the limit runs again with blame-hang, and the hung test it names is the failure', async () => {
    const host = createMemoryHost({});
    const blame = readFileSync(path.resolve(__dirname, '../../fixtures/mtp-output/vstest-blame-hang.txt'), 'utf8');
    const calls = scripted(host, [
      { exitCode: null, timedOut: true },
      { exitCode: 1, stdout: `${blame}\nThe test running when the crash occurred:\nCalculator.Tests.HangTests.Waits_Forever\n` },
    ]);
    const run = await runTests({
      host,
      projects: [{ absPath: path.join(host.workspaceRoot, 'C.Tests.csproj'), name: 'C.Tests' }],
      timeoutMs: 120_000,
    });
    assert.equal(calls.length, 2);
    assert.equal(
      calls[0]?.args.some((arg) => /blame/i.test(arg)),
      false,
      'no blame on the first run',
    );
    assert.equal(Math.round((calls[0]?.timeoutMs ?? 0) / 1000), 50, 'the first run gets half of the 120 s less the 20 s margin');
    const args = calls[1]?.args ?? [];
    // The rest of the 120 s phase less a 20 s margin, counted when the re-run starts.
    const hangSeconds = Number(/^(\d+)s$/.exec(args[args.indexOf('--blame-hang-timeout') + 1] ?? '')?.[1]);
    assert.ok(hangSeconds >= 95 && hangSeconds <= 100, String(hangSeconds));
    assert.deepEqual(blameHangArgs(120_000), ['--blame-hang', '--blame-hang-timeout', '100s', '--blame-hang-dump-type', 'none']);
    assert.deepEqual(blameHangArgs(24_999), [], 'too little time left for blame-hang to report');
    assert.deepEqual(
      run.result.failures.map((failure) => [failure.testName, failure.message]),
      [
        [
          'Calculator.Tests.HangTests.Waits_Forever',
          'Calculator.Tests.HangTests.Waits_Forever hung: nothing finished for 10 seconds, so blame-hang stopped the test host. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.',
        ],
      ],
    );
    assert.deepEqual(
      { total: run.result.total, failed: run.result.failed, success: run.result.success },
      { total: 1, failed: 1, success: false },
    );
  });

  it("a project's last run sets its first run's share: a healthy suite gets all but a re-run's room (VSTest and MTP)", async () => {
    const host = createMemoryHost({ 'mtp/global.json': MTP_GLOBAL });
    const calls = scripted(host, [{ exitCode: 0, stdout: 'Results File: /memory-workspace/none.trx' }]);
    const vstest = { absPath: path.join(host.workspaceRoot, 'tests/V.Tests/V.Tests.csproj'), name: 'V.Tests' };
    const first = await runTests({ host, projects: [vstest], timeoutMs: 600_000, expectedMs: new Map([[vstest.absPath, 30_000]]) });
    // 600 s less a re-run's room: the 30 s it took last time, a 60 s hang timeout and the 20 s margin.
    assert.equal(Math.round((calls[0]?.timeoutMs ?? 0) / 1000), 490);
    assert.equal(first.durationByProject.has(vstest.absPath), true, 'its time is recorded for the next run');
    const withHangDump = { ...MSTEST, hangDump: true };
    const mstest = {
      absPath: path.join(host.workspaceRoot, 'mtp/tests/M.Tests/M.Tests.csproj'),
      name: 'M.Tests',
      testRunner: withHangDump,
    };
    const mtpCalls = scripted(host, [{ exitCode: 0, trx: [{ name: 'M.Passes', outcome: 'Passed' }] }]);
    await runTests({
      host,
      projects: [mstest],
      timeoutMs: 600_000,
      modeFrom: path.join(host.workspaceRoot, 'mtp'),
      expectedMs: new Map([[mstest.absPath, 30_000]]),
    });
    assert.equal(Math.round((mtpCalls[0]?.timeoutMs ?? 0) / 1000), 490);
  });

  it("with a known last run, the re-run's blame-hang timeout leaves that run's time to reach the hung test", async () => {
    const host = createMemoryHost({});
    const blame = readFileSync(path.resolve(__dirname, '../../fixtures/mtp-output/vstest-blame-hang.txt'), 'utf8');
    const calls = scripted(host, [
      { exitCode: null, timedOut: true },
      { exitCode: 1, stdout: `${blame}\nThe test running when the crash occurred:\nCalculator.Tests.HangTests.Waits_Forever\n` },
    ]);
    const project = { absPath: path.join(host.workspaceRoot, 'C.Tests.csproj'), name: 'C.Tests' };
    await runTests({ host, projects: [project], timeoutMs: 120_000, expectedMs: new Map([[project.absPath, 10_000]]) });
    // 120 s less a re-run's room (10 s + a 20 s hang timeout + the 20 s margin) for the first run; the
    // scripted first run ends at once, so the re-run has all 120 s left.
    assert.deepEqual(
      calls.map((call) => Math.round(call.timeoutMs / 1000)),
      [70, 120],
    );
    // Its watcher: the 120 s left less the 10 s the tests take to reach the hung one, less the 20 s margin.
    const args = calls[1]?.args ?? [];
    const hangSeconds = Number(/^(\d+)s$/.exec(args[args.indexOf('--blame-hang-timeout') + 1] ?? '')?.[1]);
    assert.ok(hangSeconds >= 89 && hangSeconds <= 90, String(hangSeconds));
  });

  it('a project whose tests took half of the limit or more last time gets all of it, and is not run again', async () => {
    const host = createMemoryHost({});
    const calls = scripted(host, [{ exitCode: null, timedOut: true }]);
    const vstest = { absPath: path.join(host.workspaceRoot, 'tests/V.Tests/V.Tests.csproj'), name: 'V.Tests' };
    const run = await runTests({ host, projects: [vstest], timeoutMs: 120_000, expectedMs: new Map([[vstest.absPath, 70_000]]) });
    assert.deepEqual(
      calls.map((call) => Math.round(call.timeoutMs / 1000)),
      [120],
    );
    assert.equal(run.result.timedOut, true);
    assert.equal(run.durationByProject.has(vstest.absPath), false, 'a run stopped at the limit is not a duration to go by');
  });

  it('a run that does not hang carries no hang watcher: the exact arguments of VSTest (both forms), MTP and xunit v3 with the HangDump extension', async () => {
    const host = createMemoryHost({
      'tests/V.Tests/bin/V.Tests.dll': 'MZ',
      'mtp/global.json': MTP_GLOBAL,
      'mtp/tests/X.Tests/bin/X.Tests.dll': 'MZ',
    });
    const calls = scripted(host, [
      { exitCode: 0, stdout: 'Results File: /memory-workspace/.ironbees/tmp/test-results/none.trx' },
      { exitCode: 0 },
      { exitCode: 0, trx: [{ name: 'M.Passes', outcome: 'Passed' }] },
      { exitCode: 0, trx: [{ name: 'X.Passes', outcome: 'Passed' }] },
    ]);
    const fromDll = { absPath: path.join(host.workspaceRoot, 'tests/V.Tests/V.Tests.csproj'), name: 'V.Tests' };
    const fromProject = { absPath: path.join(host.workspaceRoot, 'tests/W.Tests/W.Tests.csproj'), name: 'W.Tests' };
    const dll = path.join(host.workspaceRoot, 'tests/V.Tests/bin/V.Tests.dll');
    await runTests({
      host,
      projects: [fromDll, fromProject],
      timeoutMs: 600_000,
      assemblies: new Map([[fromDll.absPath, [dll]]]),
      concurrency: 1,
    });
    const resultsDir = path.join(host.workspaceRoot, '.ironbees/tmp/test-results');
    const prefixOf = (arg: string | undefined): string => /(V\.Tests|W\.Tests)-\d+-[0-9a-f]{8}/.exec(arg ?? '')?.[0] ?? 'no prefix';
    assert.deepEqual(calls[0]?.args, [
      'vstest',
      dll,
      `--logger:trx;LogFileName=${prefixOf(calls[0]?.args[2])}.trx`,
      `--ResultsDirectory:${resultsDir}`,
    ]);
    assert.deepEqual(calls[1]?.args, [
      'test',
      fromProject.absPath,
      '--no-build',
      '--no-restore',
      '--nologo',
      '--logger',
      `trx;LogFilePrefix=${prefixOf(calls[1]?.args[6])}`,
      '--results-directory',
      resultsDir,
    ]);
    assert.deepEqual(
      calls.slice(0, 2).map((call) => Math.round(call.timeoutMs / 1000)),
      [290, 290],
      'Ironbees enforces the limit: half of the 600 s less the margin, room left to name a hung test',
    );
    const withHangDump = { mtpRunner: true, dotnetTestSupport: false, xunitV3: false, trxReport: true, hangDump: true, runSettings: false };
    const xunitHangDump = { ...withHangDump, mtpRunner: false, xunitV3: true, trxReport: false };
    const mstest = {
      absPath: path.join(host.workspaceRoot, 'mtp/tests/M.Tests/M.Tests.csproj'),
      name: 'M.Tests',
      testRunner: withHangDump,
    };
    const xunit = {
      absPath: path.join(host.workspaceRoot, 'mtp/tests/X.Tests/X.Tests.csproj'),
      name: 'X.Tests',
      testRunner: xunitHangDump,
    };
    const xunitDll = path.join(host.workspaceRoot, 'mtp/tests/X.Tests/bin/X.Tests.dll');
    const run = await runTests({
      host,
      projects: [mstest, xunit],
      timeoutMs: 600_000,
      modeFrom: path.join(host.workspaceRoot, 'mtp'),
      assemblies: new Map([[xunit.absPath, [xunitDll]]]),
      concurrency: 1,
    });
    const mtpResults = calls[2]?.args[calls[2].args.indexOf('--results-directory') + 1] ?? '';
    assert.deepEqual(calls[2]?.args, [
      'test',
      '--project',
      mstest.absPath,
      '--no-build',
      '--no-restore',
      '--results-directory',
      mtpResults,
      '--report-trx',
      '--no-progress',
      '--no-ansi',
    ]);
    assert.deepEqual(calls[3]?.args, ['exec', xunitDll, '-noLogo', '-noColor', '-result-trx', calls[3]?.args[5] ?? '']);
    assert.deepEqual(run.result.total, 2);
  });

  it('xunit v3 on its own runner with the HangDump extension: a run that reaches its share of the limit is named through dotnet test with the hang dump', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL, 'tests/X.Tests/bin/X.Tests.dll': 'MZ' });
    const facts = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: true, runSettings: false };
    const xunit = project(host, 'X.Tests', facts);
    const calls = scripted(host, [
      { exitCode: null, timedOut: true },
      { exitCode: 7, stdout: '', files: { 'X.Tests_77_hang.log': '[00:00:30] X.T.WaitsForever\n' } },
    ]);
    const run = await runTests({
      host,
      projects: [xunit],
      timeoutMs: 100_000,
      assemblies: new Map([[xunit.absPath, [path.join(host.workspaceRoot, 'tests/X.Tests/bin/X.Tests.dll')]]]),
    });
    assert.deepEqual(
      calls.map((call) => [call.args[0], Math.round(call.timeoutMs / 1000)]),
      [
        ['exec', 40],
        ['test', 100],
      ],
    );
    const args = calls[1]?.args ?? [];
    assert.deepEqual(args.slice(0, 3), ['test', '--project', xunit.absPath]);
    assert.ok(args.includes('--hangdump') && args.includes('--report-xunit-trx'), args.join(' '));
    assert.deepEqual(
      run.result.failures.map((failure) => failure.testName),
      ['X.T.WaitsForever'],
    );
    assert.equal(run.outcomes.get('X.T.WaitsForever'), 'failed');
  });

  it('xunit v3 on its own runner without the HangDump extension: the re-run names the hung test by its long-running detection and is stopped at once', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL, 'tests/X.Tests/bin/X.Tests.dll': 'MZ' });
    const facts = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: false, runSettings: false };
    const xunit = project(host, 'X.Tests', facts);
    const calls: Array<{ args: string[]; timeoutMs: number; stoppedByUs: boolean }> = [];
    const console =
      '  Starting:    X.Tests\n    X.T.Fails [FAIL]\n      Assert.Equal() Failure: Values differ\n      Stack Trace:\n        at X.T.Fails()\n' +
      "    [D::X.Tests] [Long Running Test] 'X.T.WaitsForever', Elapsed: 00:00:39\n";
    (host.process as { run: (command: string, args: readonly string[], options: RunOptions) => Promise<RunResult> }).run = async (
      _command,
      args,
      options,
    ) => {
      const first = calls.length === 0;
      options.onOutput?.(first ? '  Starting:    X.Tests\n' : console, 'stdout');
      const stoppedByUs = options.signal?.aborted === true;
      calls.push({ args: [...args], timeoutMs: options.timeoutMs, stoppedByUs });
      const stdout = first ? '  Starting:    X.Tests\n' : console;
      return { exitCode: null, stdout, stderr: '', durationMs: 5, timedOut: first, cancelled: !first && stoppedByUs };
    };
    const run = await runTests({
      host,
      projects: [xunit],
      timeoutMs: 100_000,
      assemblies: new Map([[xunit.absPath, [path.join(host.workspaceRoot, 'tests/X.Tests/bin/X.Tests.dll')]]]),
    });
    assert.deepEqual(
      calls.map((call) => [call.args[0], Math.round(call.timeoutMs / 1000), call.args.slice(6, 7), call.stoppedByUs]),
      [
        ['exec', 40, [], false],
        ['exec', 100, ['-longRunning'], true],
      ],
    );
    // Half of the time left (100 s) less the 20 s margin: xunit names a test after one to two such periods.
    assert.ok(['39', '40'].includes(calls[1]?.args[7] ?? ''), calls[1]?.args[7]);
    assert.deepEqual(
      run.result.failures.map((failure) => [failure.testName, failure.message]),
      [
        [
          'X.T.Fails',
          'Assert.Equal() Failure: Values differ\n(read from the console output: the test process was stopped before it wrote its report)',
        ],
        [
          'X.T.WaitsForever',
          "X.T.WaitsForever hung: it ran for 00:00:39 without finishing, so xunit's long-running detection named it and Ironbees stopped the test process. Tests that had not run yet were not run. Look for a deadlock, an endless loop or a wait for input or network.",
        ],
      ],
    );
    assert.deepEqual(
      { total: run.result.total, failed: run.result.failed, success: run.result.success, timedOut: run.result.timedOut },
      { total: 2, failed: 2, success: false, timedOut: undefined },
    );
    assert.equal(run.outcomes.get('X.T.WaitsForever'), 'failed');
  });

  it('a hang dump run stopped at the limit before its summary: the hung test and the failures it printed are the result', async () => {
    const host = createMemoryHost({ 'global.json': MTP_GLOBAL });
    const facts = { mtpRunner: true, dotnetTestSupport: false, xunitV3: false, trxReport: true, hangDump: true, runSettings: false };
    scripted(host, [
      { exitCode: null, timedOut: true },
      {
        exitCode: null,
        timedOut: true,
        stdout: 'failed M.T.Withdraw (9ms)\n  Assert.AreEqual failed. Expected:<70>. Actual:<130>.\n    at M.T.Withdraw() in /ws/T.cs:14\n',
        files: { 'M.Tests_9_hang.log': '[00:00:35] M.T.WaitsForever\n' },
      },
    ]);
    const run = await runTests({ host, projects: [project(host, 'M.Tests', facts)], timeoutMs: 90_000 });
    assert.deepEqual(
      run.result.failures.map((failure) => failure.testName),
      ['M.T.Withdraw', 'M.T.WaitsForever'],
    );
    assert.deepEqual({ total: run.result.total, passed: run.result.passed, failed: run.result.failed }, { total: 2, passed: 0, failed: 2 });
    assert.equal(run.outcomes.get('M.T.Withdraw'), 'failed');
  });
});
