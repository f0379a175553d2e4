// The validator against a real .NET SDK, on copies of the fixtures in a temp folder (packages from the
// default NuGet feed, plus IRONBEES_NUGET_SOURCE when set).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../src/core/errors';
import type { Host } from '../../src/core/host';
import type { Baseline } from '../../src/core/model';
import { captureBaseline, validate } from '../../src/core/dotnet/validator';
import { buildErrorContext } from '../../src/core/dotnet/error-context';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { createNodeHost } from '../../src/host/node/index';
import { vstestConsoleFor } from '../../src/core/dotnet/vstest-console';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const timeouts = { buildMs: 240_000, testMs: 120_000 };
const temps: string[] = [];

function copyFixture(name: string): string {
  const root = mkdtempSync(path.join(tmpdir(), `ironbees-${name}-`));
  temps.push(root);
  cpSync(path.join(FIXTURES, name), root, { recursive: true, filter: (source) => !/[\\/](bin|obj|TestResults)$/.test(source) });
  return root;
}

function edit(root: string, file: string, from: string, to: string): void {
  const full = path.join(root, file);
  const before = readFileSync(full, 'utf8');
  assert.ok(before.includes(from), `${file} contains ${from}`);
  writeFileSync(full, before.replace(from, to));
}

/** Command lines of running processes that mention `needle`. */
function processesMentioning(needle: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing.split('\n').filter((line) => line.includes(needle) && !line.includes('ps -eo'));
}

async function waitUntilGone(needle: string, timeoutMs: number): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  let left = processesMentioning(needle);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = processesMentioning(needle);
  }
  return left;
}

describe('validator with real dotnet', function () {
  this.timeout(300_000);
  let lastHost: Host | undefined;
  const hostFor = (root: string): Host => (lastHost = createNodeHost(root, { logger: quietLogger }));

  after(async function () {
    this.timeout(60_000);
    if (lastHost) await shutdownBuildServers(lastHost);
    for (const root of temps) rmSync(root, { recursive: true, force: true });
  });

  describe('calculator', () => {
    let root: string;
    let host: Host;
    let baseline: Baseline;

    before(async function () {
      this.timeout(300_000);
      root = copyFixture('calculator');
      host = hostFor(root);
      baseline = await captureBaseline({ host, timeouts });
    });

    it('captures a baseline with the one failing test', () => {
      assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors));
      assert.deepEqual([baseline.test?.total, baseline.test?.passed, baseline.test?.failed], [7, 6, 1]);
      assert.equal(baseline.test?.failures[0]?.testName, 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient');
      assert.match(baseline.test?.failures[0]?.message ?? '', /Expected: 2\nActual: {3}18/);
    });

    it('passes after the fix, crediting the fixed test', async () => {
      edit(root, 'src/Calculator/Calculator.cs', 'return a * b;', 'return a / b;');
      const outcome = await validate({ host, timeouts, changedFiles: ['src/Calculator/Calculator.cs'], baseline });
      assert.equal(outcome.passed, true, buildErrorContext(outcome, 1).text);
      assert.deepEqual([outcome.test?.total, outcome.test?.failed], [7, 0]);
      assert.deepEqual(outcome.fixedFailures, ['Calculator.Tests.CalcTests.Divide_ReturnsQuotient']);
    });

    it('reports a broken edit as CS errors with file and line, and runs no tests', async () => {
      edit(root, 'src/Calculator/Calculator.cs', 'return a / b;', 'return a / divisor;');
      const outcome = await validate({ host, timeouts, changedFiles: ['src/Calculator/Calculator.cs'], baseline });
      assert.equal(outcome.passed, false);
      assert.equal(outcome.test, null);
      assert.deepEqual(
        outcome.newBuildErrors.map((error) => [error.code, error.filePath, error.line, error.column, error.project]),
        [['CS0103', 'src/Calculator/Calculator.cs', 18, 20, 'src/Calculator/Calculator.csproj']],
      );
      assert.match(
        buildErrorContext(outcome, 2).text,
        /### src\/Calculator\/Calculator\.cs\n- line 18:20 CS0103: The name 'divisor' does not exist/,
      );
    });

    it('kills a hanging test at the time limit and leaves no test host behind', async () => {
      edit(root, 'src/Calculator/Calculator.cs', 'return a / divisor;', 'return a / b;');
      edit(
        root,
        'tests/Calculator.Tests/CalcTests.cs',
        '[Fact]\n    public void Add_ReturnsSum()',
        '[Fact]\n    public void Hangs() => Thread.Sleep(600_000);\n\n    [Fact]\n    public void Add_ReturnsSum()',
      );
      const started = Date.now();
      const outcome = await validate({
        host,
        timeouts: { buildMs: 240_000, testMs: 20_000 },
        changedFiles: ['tests/Calculator.Tests/CalcTests.cs'],
        baseline,
      });
      assert.ok(Date.now() - started < 120_000);
      assert.equal(outcome.passed, false);
      assert.equal(outcome.test?.timedOut, true);
      assert.match(outcome.test?.failures[0]?.message ?? '', /did not finish within 20 s/);
      assert.deepEqual(await waitUntilGone(root, 10_000), [], 'no process of this workspace is left');
    });

    it('names a hung test: a run that reaches its share of the limit runs again with blame-hang, and the hung test is the failure', async () => {
      // Hangs() is still in CalcTests.cs (the test above). 70 s: the first run (no blame collector) gets
      // all but a re-run's room, by the seconds the project's tests took before, and is stopped by Ironbees;
      // the re-run's blame-hang stops Hangs() after what is left less that time and the margin.
      const started = Date.now();
      const outcome = await validate({
        host,
        timeouts: { buildMs: 240_000, testMs: 70_000 },
        changedFiles: ['tests/Calculator.Tests/CalcTests.cs'],
        baseline,
      });
      assert.ok(Date.now() - started < 180_000);
      assert.equal(outcome.passed, false);
      assert.equal(outcome.test?.timedOut, undefined, 'named within the limit, not timed out');
      // blame-hang names every test it saw start and not finish: Hangs, and at times the test started beside it.
      const hung = outcome.test?.failures.find((failure) => failure.testName === 'Calculator.Tests.CalcTests.Hangs');
      assert.match(
        hung?.message ?? '',
        /^(Calculator\.Tests\.CalcTests\.\w+, )*Calculator\.Tests\.CalcTests\.Hangs(, Calculator\.Tests\.CalcTests\.\w+)* hung: nothing finished for .+, so blame-hang stopped the test host\./,
      );
      assert.equal(outcome.test?.failed, outcome.test?.failures.length);
      assert.deepEqual(await waitUntilGone(root, 10_000), [], 'no process of this workspace is left');
    });

    it('kills a hanging build at the time limit, build servers included', async () => {
      edit(root, 'tests/Calculator.Tests/CalcTests.cs', '[Fact]\n    public void Hangs() => Thread.Sleep(600_000);\n\n', '');
      // `sleep 613` is this test's marker: nothing else on the machine runs it.
      edit(
        root,
        'src/Calculator/Calculator.csproj',
        '</Project>',
        '  <Target Name="Hang" BeforeTargets="CoreCompile">\n    <Exec Command="sleep 613" />\n  </Target>\n</Project>',
      );
      const started = Date.now();
      const outcome = await validate({
        host,
        timeouts: { buildMs: 15_000, testMs: 60_000 },
        changedFiles: ['src/Calculator/Calculator.csproj'],
        baseline,
      });
      assert.ok(Date.now() - started < 90_000, `took ${Date.now() - started} ms`);
      assert.equal(outcome.build.timedOut, true);
      assert.equal(outcome.build.success, false);
      assert.equal(outcome.build.errors.at(-1)?.code, 'TIMEOUT');
      assert.equal(outcome.test, null);
      assert.deepEqual(await waitUntilGone('sleep 613', 10_000), [], 'the hung Exec was killed');
    });
  });

  it('multi: an edit in the bottom library builds its dependents and runs both test projects, from their built assemblies', async () => {
    const root = copyFixture('multi');
    const real = hostFor(root);
    // Which dotnet verbs ran: the tests run with `dotnet vstest <dll>`, never `dotnet test` (a second MSBuild evaluation).
    const verbs: string[] = [];
    const host: Host = {
      ...real,
      process: {
        // The SDK's vstest.console started directly (vstest-console.ts) reads as the `vstest` it replaces.
        run: (command, args, options) => (
          verbs.push(args[0] === 'exec' && /vstest\.console\.dll$/.test(args[1] ?? '') ? 'vstest.console' : (args[0] ?? '')),
          real.process.run(command, args, options)
        ),
      },
    };
    const baseline = await captureBaseline({ host, timeouts });
    assert.deepEqual([baseline.build.success, baseline.test?.total, baseline.test?.failed], [true, 6, 0]);
    edit(root, 'src/TextKit/Padding.cs', 'var left = (width - text.Length) / 2;', 'var left = (width - text.Length) / 3;');
    const outcome = await validate({ host, timeouts, changedFiles: ['src/TextKit/Padding.cs'], baseline });
    assert.equal(outcome.build.success, true, JSON.stringify(outcome.build.errors));
    assert.deepEqual([outcome.test?.total, outcome.test?.failed], [6, 2], 'both test projects ran and saw the change');
    assert.deepEqual(outcome.newTestFailures.map((failure) => failure.testName).sort(), [
      'Reporting.Tests.ReportTests.Render_PutsTheTitleAboveARule',
      'TextKit.Tests.SlugTests.Center_PadsBothSides',
    ]);
    // This machine's one SDK and no global.json: vstest.console is started directly, without the dotnet CLI.
    const vstest = (await vstestConsoleFor(root)) ? 'vstest.console' : 'vstest';
    assert.deepEqual(verbs, ['build', vstest, vstest, 'build', vstest, vstest]);
  });

  it('broken: the baseline build fails with the CS errors, file and line', async () => {
    const root = copyFixture('broken');
    const baseline = await captureBaseline({ host: hostFor(root), timeouts });
    assert.equal(baseline.build.success, false);
    assert.equal(baseline.test, null);
    assert.deepEqual(
      baseline.build.errors.map((error) => [error.code, error.filePath, error.line]),
      [
        ['CS0103', 'Greeter.cs', 8],
        ['CS1061', 'Greeter.cs', 11],
      ],
    );
    assert.deepEqual(
      baseline.build.warnings.map((warning) => warning.code),
      ['CS0168'],
    );
  });

  it('says dotnet is missing when it is not on PATH', async () => {
    const root = copyFixture('broken');
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(root, 'no-bin-here');
    try {
      await assert.rejects(captureBaseline({ host: hostFor(root), timeouts }), (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.match(error.message, /^dotnet was not found on PATH/);
        return true;
      });
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
