import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host, ProcessRunner, RunOptions, RunResult } from '../../../src/core/host';
import { watchForBuildSuccess } from '../../../src/core/dotnet/build-success';
import { captureBaseline, validate } from '../../../src/core/dotnet/validator';
import { createNodeHost } from '../../../src/host/node/index';
import { FakeDotnet } from './fake-dotnet';

const MULTI = path.join(__dirname, '..', '..', 'fixtures', 'multi');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const timeouts = { buildMs: 60_000, testMs: 60_000 };

describe("MSBuild's success line (build-success.ts)", () => {
  it('fires once, at the first stdout line that is exactly "Build succeeded.", even split across chunks', () => {
    let calls = 0;
    const watch = watchForBuildSuccess(() => (calls += 1));
    watch('  Build succeeded.\n', 'stdout'); // a project's message: indented
    watch('Build succeeded.\n', 'stderr');
    watch('Build succeeded. Or not\n', 'stdout');
    assert.equal(calls, 0);
    watch('  A -> /a.dll\nBuild succ', 'stdout');
    assert.equal(calls, 0, 'not before the line is whole');
    watch('eeded.\r\n    0 Warning(s)\n', 'stdout');
    watch('Build succeeded.\n', 'stdout');
    assert.equal(calls, 1);
  });
});

/** FakeDotnet whose builds after the baseline print MSBuild's success line, then wait before they exit. */
class SlowExitDotnet implements ProcessRunner {
  readonly fake = new FakeDotnet();
  /** The exit code of the builds after the baseline (their output says they succeeded either way). */
  exitCode = 0;
  baselineDone = false;
  readonly order: string[] = [];
  testSignals: Array<AbortSignal | undefined> = [];
  /** The assembly the builds print; the test creates it. */
  assembly = '/x.dll';
  /** Set: the build writes the assembly after its success line (once a test has started), as a task printing the line early would. */
  writesAfterTheLine = false;

  async run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    if (!this.baselineDone) return this.fake.run(command, args, options);
    if (args[0] === 'build') {
      options.onOutput?.(`  Reporting.Tests -> ${this.assembly}\nBuild succeeded.\n`, 'stdout');
      // Exits only once a test command has started (or after a while: the test then fails on the order).
      for (let waited = 0; waited < 100 && !this.order.includes('test started'); waited += 1) await new Promise((r) => setTimeout(r, 10));
      if (this.writesAfterTheLine) {
        writeFileSync(this.assembly, 'the finished build');
        // What the finished build's tests say differs from what the stale run saw.
        this.fake.tests.set('Reporting.Tests', [{ name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Failed' }]);
      }
      this.order.push('build exited');
      return { stdout: 'Build succeeded.\n', stderr: '', exitCode: this.exitCode, durationMs: 5, timedOut: false, cancelled: false };
    }
    this.order.push('test started');
    this.testSignals.push(options.signal);
    if (this.exitCode !== 0) {
      // A test host that runs until it is stopped.
      await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
      return { stdout: '', stderr: '', exitCode: null, durationMs: 5, timedOut: false, cancelled: true };
    }
    return this.fake.run(command, args, options);
  }
}

describe("validate starts the tests at the build's success line", () => {
  let root: string;
  let runner: SlowExitDotnet;
  let host: Host;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-early-tests-'));
    cpSync(MULTI, root, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    runner = new SlowExitDotnet();
    runner.fake.tests.set('Reporting.Tests', [{ name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Passed' }]);
    runner.fake.tests.set('TextKit.Tests', [{ name: 'TextKit.Tests.SlugTests.From', outcome: 'Passed' }]);
    host = { ...createNodeHost(root, { logger: quietLogger }), process: runner };
    // The test project's output, written by an earlier build.
    runner.assembly = path.join(root, 'tests', 'Reporting.Tests', 'bin', 'Reporting.Tests.dll');
    mkdirSync(path.dirname(runner.assembly), { recursive: true });
    writeFileSync(runner.assembly, 'an earlier build');
    utimesSync(runner.assembly, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('before the build command exits, with the same verdict', async () => {
    const baseline = await captureBaseline({ host, timeouts });
    runner.baselineDone = true;
    const outcome = await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(runner.order, ['test started', 'build exited']);
    assert.equal(outcome.passed, true);
    assert.deepEqual([outcome.test?.total, outcome.test?.passed], [1, 1]);
  });

  it("a build that fails after all stops the tests it let start, and its verdict is the build's", async () => {
    const baseline = await captureBaseline({ host, timeouts });
    runner.baselineDone = true;
    runner.exitCode = 1;
    const outcome = await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(runner.order, ['test started', 'build exited']);
    assert.equal(runner.testSignals[0]?.aborted, true, 'the started test run was stopped');
    assert.equal(outcome.build.success, false);
    assert.equal(outcome.test, null);
    assert.equal(outcome.passed, false);
  });

  it("a build that writes the tests' output after its success line: the early run is thrown away, the tests run again", async () => {
    const baseline = await captureBaseline({ host, timeouts });
    runner.baselineDone = true;
    runner.writesAfterTheLine = true;
    const outcome = await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(runner.order, ['test started', 'build exited', 'test started']);
    assert.equal(outcome.build.success, true);
    assert.deepEqual([outcome.test?.total, outcome.test?.passed, outcome.test?.failed], [1, 0, 1]);
    assert.equal(outcome.passed, false);
  });
});
