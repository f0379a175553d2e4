import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import type { Host } from '../../../src/core/host';
import type { Baseline, CompilationDiagnostic } from '../../../src/core/model';
import type { TraceEvent } from '../../../src/core/trace';
import { captureBaseline, validate } from '../../../src/core/dotnet/validator';
import { createNodeHost } from '../../../src/host/node/index';
import { resetVstestConsoleForTests } from '../../../src/core/dotnet/vstest-console';
import { FakeDotnet } from './fake-dotnet';

const MULTI = path.join(__dirname, '..', '..', 'fixtures', 'multi');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const timeouts = { buildMs: 60_000, testMs: 60_000 };

const passing = (names: string[]) => names.map((name) => ({ name, outcome: 'Passed' as const }));

describe('validator (scripted dotnet)', () => {
  let root: string;
  let fake: FakeDotnet;
  let host: Host;
  let events: TraceEvent[];

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-validator-'));
    cpSync(MULTI, root, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    fake = new FakeDotnet();
    fake.tests.set('TextKit.Tests', passing(['TextKit.Tests.SlugTests.From', 'TextKit.Tests.SlugTests.Center']));
    fake.tests.set('Reporting.Tests', passing(['Reporting.Tests.ReportTests.Anchor']));
    host = { ...createNodeHost(root, { logger: quietLogger }), process: fake };
    events = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const options = () => ({ host, timeouts, trace: { record: (event: TraceEvent) => events.push(event) } });

  it('captures the baseline with a restoring build of the solution and every test project', async () => {
    const baseline = await captureBaseline(options());
    // Test projects run concurrently, so the order of their two commands is not a promise; the set is.
    const [build, ...tests] = fake.summary(root);
    assert.equal(build, 'build Multi.sln +restore');
    assert.deepEqual(tests.sort(), ['test tests/Reporting.Tests/Reporting.Tests.csproj', 'test tests/TextKit.Tests/TextKit.Tests.csproj']);
    assert.equal(baseline.build.success, true);
    assert.deepEqual([baseline.test?.total, baseline.test?.failed], [3, 0]);
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]?.kind, events[0]?.kind === 'validation' && events[0].phase], ['validation', 'baseline']);
    const testCall = fake.calls.find((call) => call.args[0] === 'test');
    assert.equal(testCall?.env.DOTNET_CLI_UI_LANGUAGE, 'en', 'output the parsers can read whatever the locale');
    assert.deepEqual(testCall?.args.slice(2, 5), ['--no-build', '--no-restore', '--nologo']);
    assert.equal(existsSync(path.join(root, '.ironbees', 'tmp', 'test-results')), true);
  });

  it('after the baseline, builds only the affected project without restoring, and runs only its tests', async () => {
    const baseline = await captureBaseline(options());
    fake.calls.length = 0;
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(fake.summary(root), [
      'build tests/Reporting.Tests/Reporting.Tests.csproj --no-restore',
      'test tests/Reporting.Tests/Reporting.Tests.csproj',
    ]);
    assert.equal(outcome.passed, true);
    assert.deepEqual(
      events.filter((event) => event.kind === 'validation').map((event) => event.kind === 'validation' && event.phase),
      ['baseline', 'build', 'test'],
    );
  });

  it('labels every command of the baseline "baseline" (its terminal says so), and no later one', async () => {
    const baseline = await captureBaseline(options());
    assert.ok(fake.calls.length >= 3);
    assert.deepEqual([...new Set(fake.calls.map((call) => call.label))], ['baseline']);
    fake.calls.length = 0;
    await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.ok(fake.calls.length >= 2);
    assert.deepEqual([...new Set(fake.calls.map((call) => call.label))], [undefined]);
  });

  it('builds several affected projects through one generated traversal project', async () => {
    const baseline = await captureBaseline(options());
    fake.calls.length = 0;
    await validate({ ...options(), changedFiles: ['src/TextKit/Slug.cs'], baseline });
    const [build, ...tests] = fake.summary(root);
    assert.match(build ?? '', /^build \.ironbees\/tmp\/build\/affected-[0-9a-f]{12}\.proj --no-restore$/);
    assert.equal(tests.length, 2);
    const traversal = readFileSync(path.join(root, (build ?? '').split(' ')[1] ?? ''), 'utf8');
    assert.match(traversal, /Reporting\.Tests\.csproj/);
    assert.match(traversal, /TextKit\.Tests\.csproj/);
    assert.doesNotMatch(traversal, /src[\\/]TextKit[\\/]TextKit\.csproj/, 'referenced projects are built by their dependents');
  });

  it('restores again when a project file changed', async () => {
    const baseline = await captureBaseline(options());
    fake.calls.length = 0;
    await validate({ ...options(), changedFiles: ['src/Reporting/Reporting.csproj'], baseline });
    assert.equal(fake.summary(root)[0], 'build Multi.sln +restore');
  });

  it('marks failures that were already in the baseline, and names those it fixed', async () => {
    fake.tests.set('Reporting.Tests', [
      { name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed', message: 'was broken before' },
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Failed', message: 'also broken before' },
    ]);
    const baseline = await captureBaseline(options());
    assert.equal(baseline.test?.failed, 2);
    fake.tests.set('Reporting.Tests', [
      { name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed', message: 'still broken' },
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Passed' },
      { name: 'Reporting.Tests.ReportTests.New', outcome: 'Failed', message: 'the agent broke this' },
    ]);
    fake.calls.length = 0;
    const outcome = await validate({ ...options(), changedFiles: ['src/TextKit/Padding.cs'], baseline });
    assert.equal(outcome.passed, false, 'a failure that was already there still fails the validation');
    assert.deepEqual(outcome.preExistingFailures, ['Reporting.Tests.ReportTests.Anchor']);
    assert.deepEqual(
      outcome.newTestFailures.map((failure) => failure.testName),
      ['Reporting.Tests.ReportTests.New'],
    );
    assert.deepEqual(outcome.fixedFailures, ['Reporting.Tests.ReportTests.Render']);
    assert.equal(outcome.test?.failures.find((failure) => failure.testName.endsWith('Anchor'))?.preExisting, true);
  });

  it('passes with baseline failures the plan leaves alone, and only with those', async () => {
    const before = [
      { name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed' as const, message: 'was broken before' },
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Passed' as const },
    ];
    fake.tests.set('Reporting.Tests', before);
    const baseline = await captureBaseline(options());
    const known = { knownFailures: ['Reporting.Tests.ReportTests.Anchor'] };
    const unchanged = await validate({ ...options(), changedFiles: ['src/TextKit/Padding.cs'], baseline, ...known });
    assert.equal(unchanged.passed, true, 'the only failure is one the plan leaves alone');
    assert.deepEqual(unchanged.toleratedFailures, ['Reporting.Tests.ReportTests.Anchor']);
    const strict = await validate({ ...options(), changedFiles: ['src/TextKit/Padding.cs'], baseline });
    assert.equal(strict.passed, false, 'without knownFailures every test must pass');
    fake.tests.set('Reporting.Tests', [
      before[0]!,
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Failed', message: 'the agent broke this' },
    ]);
    const broken = await validate({
      ...options(),
      changedFiles: ['src/TextKit/Padding.cs'],
      baseline,
      knownFailures: [...known.knownFailures, 'Reporting.Tests.ReportTests.Render'],
    });
    assert.equal(broken.passed, false, 'naming a test that passed before excuses nothing');
    assert.deepEqual(broken.toleratedFailures, ['Reporting.Tests.ReportTests.Anchor']);
  });

  it('merges the TRX of each target framework of a multi-targeted test project', async () => {
    fake.frameworks.set('Reporting.Tests', ['net8.0', 'net10.0']);
    fake.tests.set('Reporting.Tests:net8.0', [
      { name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed', message: 'only on net8.0' },
    ]);
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline: null });
    assert.deepEqual([outcome.test?.total, outcome.test?.passed, outcome.test?.failed], [2, 1, 1]);
    assert.equal(outcome.newTestFailures[0]?.message, 'only on net8.0');
    const baseline: Baseline = { build: outcome.build, test: outcome.test, capturedAt: '' };
    const again = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(again.fixedFailures, [], 'passing on one framework does not fix a failure on another');
    assert.deepEqual(again.preExistingFailures, ['Reporting.Tests.ReportTests.Anchor']);
  });

  it('finds the TRX files by their prefix when the output does not name them, and deletes them after reading', async () => {
    fake.announceResults = false;
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline: null });
    assert.deepEqual([outcome.test?.total, outcome.test?.passed], [1, 1]);
    assert.deepEqual(readdirSync(path.join(root, '.ironbees', 'tmp', 'test-results')), []);
  });

  it('runs every test project when the baseline had failures, even for a narrow change (after the failing-first round passes)', async () => {
    fake.tests.set('TextKit.Tests', [{ name: 'TextKit.Tests.SlugTests.From', outcome: 'Failed', message: 'broken before' }]);
    const baseline = await captureBaseline(options());
    fake.tests.set('TextKit.Tests', passing(['TextKit.Tests.SlugTests.From']));
    fake.calls.length = 0;
    await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    // The failing-first round, then every test project (run concurrently: their order is not a promise).
    const [failingFirst, ...all] = fake.summary(root).filter((call) => call.startsWith('test'));
    assert.equal(failingFirst, 'test tests/TextKit.Tests/TextKit.Tests.csproj');
    assert.deepEqual(all.sort(), ['test tests/Reporting.Tests/Reporting.Tests.csproj', 'test tests/TextKit.Tests/TextKit.Tests.csproj']);
  });

  it('failing-first: the tests that failed last time run alone; one still failing is the verdict and the rest is not run', async () => {
    fake.tests.set('Reporting.Tests', [
      { name: 'Reporting.Tests.ReportTests.Anchor(level: 2)', outcome: 'Failed', message: 'broken before' },
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Passed' },
    ]);
    const baseline = await captureBaseline(options());
    fake.calls.length = 0;
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    const tests = fake.calls.filter((call) => call.args[0] === 'test');
    assert.equal(tests.length, 1, 'only the failing-first round ran');
    assert.equal(outcome.test?.onlyLastFailures, true, 'the result says the other tests were not run');
    const args = tests[0]?.args ?? [];
    assert.deepEqual(args.slice(args.indexOf('--filter'), args.indexOf('--filter') + 2), [
      '--filter',
      'FullyQualifiedName=Reporting.Tests.ReportTests.Anchor',
    ]);
    assert.equal(outcome.passed, false);
    assert.deepEqual(outcome.preExistingFailures, ['Reporting.Tests.ReportTests.Anchor(level: 2)']);
    const detail = events
      .filter((event) => event.kind === 'validation' && event.phase === 'test')
      .map((event) => (event.kind === 'validation' ? event.detail : ''));
    assert.match(
      detail.at(-1) ?? '',
      /failing-first: the tests that failed last time still fail, the other tests of TextKit\.Tests, Reporting\.Tests were not run$/,
    );

    // A baseline failure the plan leaves alone never cuts the run short: the whole set runs, unfiltered.
    fake.calls.length = 0;
    const tolerated = await validate({
      ...options(),
      changedFiles: ['src/Reporting/Report.cs'],
      baseline,
      knownFailures: ['Reporting.Tests.ReportTests.Anchor(level: 2)'],
    });
    assert.deepEqual(
      fake.calls.filter((call) => call.args[0] === 'test').map((call) => call.args.includes('--filter')),
      [false, false],
    );
    assert.equal(tolerated.passed, true);
    assert.equal(tolerated.test?.onlyLastFailures, undefined, 'every test ran');
  });

  it("calls onFirstProcess once, after the baseline's first dotnet process started, and its failures still lead the next validation", async () => {
    fake.tests.set('Reporting.Tests', [{ name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed', message: 'broken before' }]);
    const seen: number[] = [];
    const baseline = await captureBaseline({ ...options(), onFirstProcess: () => seen.push(fake.calls.length) });
    assert.equal(seen.length, 1, 'called once');
    assert.ok((seen[0] ?? 0) >= 1, 'after a process started');
    fake.calls.length = 0;
    await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    // The baseline's session (found by the workspace host, not the watching one) remembered the failure.
    const tests = fake.calls.filter((call) => call.args[0] === 'test');
    assert.equal(tests.length, 1, 'the failing-first round ran and was the verdict');
    assert.ok(tests[0]?.args.includes('--filter'));
  });

  it("runs each test project from the assembly its build printed (the SDK's vstest.console started directly, no second MSBuild evaluation), with the same results", async () => {
    // A dotnet install of its own on PATH, with one SDK: the one `dotnet vstest` would use.
    const dotnetRoot = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-dotnet-root-')));
    const vstestConsole = path.join(dotnetRoot, 'sdk', '9.0.100', 'vstest.console.dll');
    mkdirSync(path.dirname(vstestConsole), { recursive: true });
    writeFileSync(vstestConsole, 'MZ');
    writeFileSync(path.join(dotnetRoot, 'dotnet'), '#!/bin/sh\n', { mode: 0o755 });
    const path0 = process.env.PATH;
    process.env.PATH = `${dotnetRoot}${path.delimiter}${path0 ?? ''}`;
    resetVstestConsoleForTests();
    try {
      await fromTheAssembly(vstestConsole, dotnetRoot);
    } finally {
      process.env.PATH = path0;
      resetVstestConsoleForTests();
      rmSync(dotnetRoot, { recursive: true, force: true });
    }
  });

  async function fromTheAssembly(vstestConsole: string, dotnetRoot: string): Promise<void> {
    const dll = (name: string): string => path.join(root, 'tests', name, 'bin', 'Debug', 'net10.0', `${name}.dll`);
    for (const name of ['TextKit.Tests', 'Reporting.Tests']) {
      mkdirSync(path.dirname(dll(name)), { recursive: true });
      writeFileSync(dll(name), 'MZ');
    }
    fake.tests.set('Reporting.Tests', [
      { name: 'Reporting.Tests.ReportTests.Anchor(level: 2)', outcome: 'Failed', message: 'broken before' },
      { name: 'Reporting.Tests.ReportTests.Render', outcome: 'Passed' },
    ]);
    // Split mid-line on purpose: the collector reads the streamed output, not the whole text.
    fake.scriptBuilds({
      exitCode: 0,
      stdout: `  TextKit -> ${root}/src/TextKit/bin/Debug/net10.0/TextKit.dll\n  TextKit.Tests -> ${dll('TextKit.Tests')}\n  Reporting.Tests -> ${dll('Reporting.Tests')}\n`,
    });
    const baseline = await captureBaseline(options());
    const [build, ...tests] = fake.summary(root);
    assert.equal(build, 'build Multi.sln +restore');
    assert.deepEqual(tests.sort(), [
      'vstest tests/Reporting.Tests/bin/Debug/net10.0/Reporting.Tests.dll',
      'vstest tests/TextKit.Tests/bin/Debug/net10.0/TextKit.Tests.dll',
    ]);
    assert.deepEqual([baseline.test?.total, baseline.test?.passed, baseline.test?.failed], [4, 3, 1]);
    assert.deepEqual(
      baseline.test?.failures.map((failure) => [failure.testName, failure.message]),
      [['Reporting.Tests.ReportTests.Anchor(level: 2)', 'broken before']],
    );
    const call = fake.calls.find((one) => one.args[0] === 'exec' && one.args[2] === dll('Reporting.Tests'));
    const resultsDir = path.join(root, '.ironbees', 'tmp', 'test-results');
    // No blame collector on a run that does not hang: Ironbees enforces the limit. No dotnet CLI in between.
    assert.equal(call?.args.length, 5);
    assert.equal(call?.args[1], vstestConsole);
    assert.equal(call?.args[4], `--ResultsDirectory:${resultsDir}`);
    assert.match(call?.args[3] ?? '', /^--logger:trx;LogFileName=Reporting\.Tests-\d+-[0-9a-f]{8}\.trx$/);
    // What `dotnet vstest` sets for the console: the test host finds this dotnet.
    assert.equal(call?.env.VSTEST_DOTNET_ROOT_PATH, dotnetRoot);
    assert.match(call?.env.VSTEST_DOTNET_ROOT_ARCHITECTURE ?? '', /^(X64|ARM64|X86|ARM)$/);

    // The next build prints nothing (an empty, quiet reply): what the baseline's build said still holds.
    fake.scriptBuilds({ exitCode: 0, stdout: '' });
    fake.calls.length = 0;
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    const first = fake.calls.filter((one) => one.args[0] === 'exec' && one.args[1] === vstestConsole);
    assert.equal(first.length, 1, 'failing-first round only: the baseline failure still fails');
    assert.deepEqual(
      first[0]?.args.filter((arg) => arg.startsWith('--TestCaseFilter:')),
      ['--TestCaseFilter:FullyQualifiedName=Reporting.Tests.ReportTests.Anchor'],
    );
    assert.deepEqual(outcome.preExistingFailures, ['Reporting.Tests.ReportTests.Anchor(level: 2)']);
    // The baseline's run of the project (a few ms) sets the first run's share: all of the 60 s but twice
    // the shortest hang timeout and the margin (30 s), not half less the margin (20 s).
    assert.equal(Math.round((first[0]?.timeoutMs ?? 0) / 1000), 30);
  }

  it('reports build errors, new ones apart from those the baseline had, and skips the tests', async () => {
    const knownError: CompilationDiagnostic = {
      code: 'CS0618',
      message: 'Old is obsolete',
      filePath: 'src/TextKit/Slug.cs',
      line: 3,
      column: 1,
    };
    const baseline: Baseline = {
      build: { success: true, errors: [knownError], warnings: [], durationMs: 1 },
      test: null,
      capturedAt: new Date().toISOString(),
    };
    fake.scriptBuilds({
      exitCode: 1,
      stdout: [
        `${root}/src/TextKit/Slug.cs(9,3): error CS0618: Old is obsolete [${root}/src/TextKit/TextKit.csproj]`,
        `${root}/src/Reporting/Report.cs(12,20): error CS0103: The name 'x' does not exist in the current context [${root}/src/Reporting/Reporting.csproj]`,
      ].join('\n'),
    });
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.equal(outcome.passed, false);
    assert.equal(outcome.test, null);
    assert.equal(outcome.build.errors.length, 2);
    assert.deepEqual(
      outcome.newBuildErrors.map((error) => [error.code, error.filePath, error.line]),
      [['CS0103', 'src/Reporting/Report.cs', 12]],
    );
    assert.ok(outcome.build.outputTail?.includes('CS0103'));
    assert.equal(
      fake.summary(root).some((call) => call.startsWith('test')),
      false,
    );
  });

  it('restores and builds once more when the build says the restore is stale', async () => {
    const baseline = await captureBaseline(options());
    fake.calls.length = 0;
    fake.scriptBuilds(
      {
        exitCode: 1,
        stdout: `${root}/src/Reporting/Reporting.csproj : error NETSDK1004: Assets file 'obj/project.assets.json' not found. Run a NuGet package restore.`,
      },
      { exitCode: 0 },
    );
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(fake.summary(root).slice(0, 2), [
      'build tests/Reporting.Tests/Reporting.Tests.csproj --no-restore',
      'build Multi.sln +restore',
    ]);
    assert.equal(outcome.passed, true);
  });

  it('reports a build killed at its time limit as a failed, timed-out build', async () => {
    fake.scriptBuilds({ timedOut: true, stdout: '  Determining projects to restore...' });
    const outcome = await validate({
      ...options(),
      timeouts: { buildMs: 3_000, testMs: 1_000 },
      changedFiles: ['src/Reporting/Report.cs'],
      baseline: null,
    });
    assert.equal(outcome.build.timedOut, true);
    assert.equal(outcome.build.success, false);
    assert.equal(outcome.build.errors[0]?.code, 'TIMEOUT');
    assert.match(outcome.build.errors[0]?.message ?? '', /within 3 s/);
    assert.equal(outcome.test, null);
  });

  it('fails fast on new language-server errors without building', async () => {
    const diagnostic: CompilationDiagnostic = {
      code: 'CS1002',
      message: '; expected',
      filePath: 'src/Reporting/Report.cs',
      line: 4,
      column: 9,
    };
    const asked: string[][] = [];
    host = { ...host, diagnostics: { errorsFor: async (files) => (asked.push([...files]), [diagnostic]) } };
    const outcome = await validate({ ...options(), changedFiles: ['src/Reporting/Report.cs'], baseline: null });
    assert.deepEqual(asked, [['src/Reporting/Report.cs']]);
    assert.equal(fake.calls.length, 0, 'no dotnet process was started');
    assert.equal(outcome.passed, false);
    assert.deepEqual(outcome.newBuildErrors, [diagnostic]);
  });

  it('builds anyway when the language server only sees errors the baseline had', async () => {
    const diagnostic: CompilationDiagnostic = {
      code: 'CS0618',
      message: 'Old is obsolete',
      filePath: 'src/TextKit/Slug.cs',
      line: 1,
      column: 1,
    };
    host = { ...host, diagnostics: { errorsFor: async () => [{ ...diagnostic, line: 7 }] } };
    const baseline: Baseline = { build: { success: true, errors: [diagnostic], warnings: [], durationMs: 1 }, test: null, capturedAt: '' };
    const outcome = await validate({ ...options(), changedFiles: ['src/TextKit/Slug.cs'], baseline });
    assert.equal(outcome.passed, true);
    assert.ok(fake.calls.length > 0);
  });

  it('says plainly when dotnet is not installed', async () => {
    fake.missing = true;
    await assert.rejects(captureBaseline(options()), (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      assert.match(error.message, /dotnet was not found on PATH; install the \.NET SDK/);
      return true;
    });
  });

  it('stops before starting anything when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the person'));
    await assert.rejects(
      validate({ ...options(), signal: controller.signal, changedFiles: ['src/Reporting/Report.cs'], baseline: null }),
      /cancelled by the person/,
    );
    assert.equal(fake.calls.length, 0);
  });
});
