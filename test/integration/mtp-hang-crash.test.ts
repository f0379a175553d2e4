// Hangs and crashes are data, on Microsoft.Testing.Platform with real dotnet: a copy of mtp-ledger where an
// MSTest test kills its test host (Environment.FailFast) and an xunit v3 test never returns (that project
// gets Microsoft.Testing.Extensions.HangDump). The baseline reports the crash naming the test that was
// running, and the hang as a failure of the hung test by name, stopped within the time limit, with the
// tests that did finish counted. One restore and build for both cases.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { captureBaseline } from '../../src/core/dotnet/validator';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { createNodeHost } from '../../src/host/node/index';

const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('Microsoft.Testing.Platform hangs and crashes (real dotnet)', function () {
  this.timeout(900_000);
  let root = '';

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-mtp-faults-'));
    cpSync(path.join(__dirname, '..', 'fixtures', 'mtp-ledger'), root, {
      recursive: true,
      filter: (source) => !/[\\/](bin|obj)$/.test(source),
    });
    writeFileSync(
      path.join(root, 'tests', 'Ledger.MSTests', 'CrashTests.cs'),
      'namespace Ledger.MSTests;\n\n[Microsoft.VisualStudio.TestTools.UnitTesting.TestClass]\npublic sealed class CrashTests\n{\n    [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethod]\n    public void KillsTheHost() => Environment.FailFast("the ledger file is corrupt");\n}\n',
    );
    const xunitProject = path.join(root, 'tests', 'Ledger.XunitTests', 'Ledger.XunitTests.csproj');
    const withHangDump = readFileSync(xunitProject, 'utf8').replace(
      '<PackageReference Include="xunit.v3" Version="4.0.2" />',
      '<PackageReference Include="xunit.v3" Version="4.0.2" />\n    <PackageReference Include="Microsoft.Testing.Extensions.HangDump" Version="2.5.2" />',
    );
    assert.match(withHangDump, /HangDump/);
    writeFileSync(xunitProject, withHangDump);
    writeFileSync(
      path.join(root, 'tests', 'Ledger.XunitTests', 'HangTests.cs'),
      'namespace Ledger.XunitTests;\n\npublic class HangTests\n{\n    [Xunit.Fact]\n    public void WaitsForever() => Thread.Sleep(Timeout.Infinite);\n}\n',
    );
  });
  after(async () => {
    await shutdownBuildServers(createNodeHost(root, { logger: quietLogger }));
    rmSync(root, { recursive: true, force: true });
  });

  it('a crashed test host names the running test; a hung test is named and stopped within the time limit; both are failures', async () => {
    const host = createNodeHost(root, { logger: quietLogger });
    // 90 s: the first run (no hang dump) gets 35 s, the re-run that names the hung test the 55 s left (a 35 s hang timeout).
    const baseline = await captureBaseline({ host, timeouts: { buildMs: 600_000, testMs: 90_000 } });
    assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors.slice(0, 3)));
    const test = baseline.test;
    assert.ok(test);
    assert.equal(test.success, false);
    assert.equal(test.timedOut, undefined, 'the hang dump stopped the hung test before the phase limit');
    const byName = new Map(test.failures.map((failure) => [failure.testName, failure.message]));
    assert.match(
      byName.get('[test run] Ledger.MSTests') ?? '',
      /^The test host crashed while running Ledger\.MSTests\.CrashTests\.KillsTheHost: the test session did not complete: the test process likely crashed \(Microsoft\.Testing\.Platform exit code 7\)\./,
    );
    assert.match(
      byName.get('Ledger.XunitTests.HangTests.WaitsForever') ?? '',
      /^Ledger\.XunitTests\.HangTests\.WaitsForever hung: it ran for 00:00:[23]\d without finishing, so Microsoft\.Testing\.Platform's hang dump stopped the test host\./,
    );
    // The xunit project's other tests finished and count: Withdraw fails (the fixture's bug), two Deposit cases pass.
    assert.equal(byName.has('Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance'), true, JSON.stringify([...byName.keys()]));
    assert.equal(byName.has('[test run] Ledger.XunitTests'), false);
    const leftovers = readdirSync(path.join(root, '.ironbees', 'tmp', 'test-results'), { recursive: true })
      .map(String)
      .filter((file) => /_hang\.(log|dmp)$/.test(file));
    assert.deepEqual(leftovers, [], 'the hang log and the dump are removed');
  });

  it('without the HangDump extension, xunit v3 on its own runner still names the hung test (long-running detection), as a failure', async () => {
    const xunitProject = path.join(root, 'tests', 'Ledger.XunitTests', 'Ledger.XunitTests.csproj');
    const withoutHangDump = readFileSync(xunitProject, 'utf8').replace(
      /\n\s*<PackageReference Include="Microsoft\.Testing\.Extensions\.HangDump" Version="2\.5\.2" \/>/,
      '',
    );
    assert.doesNotMatch(withoutHangDump, /HangDump/);
    writeFileSync(xunitProject, withoutHangDump);
    const host = createNodeHost(root, { logger: quietLogger });
    // 100 s: the first run gets 40 s; the re-run's detection (every 20 s) names a test that ran 20-40 s, within the 60 s left.
    const baseline = await captureBaseline({ host, timeouts: { buildMs: 600_000, testMs: 100_000 } });
    assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors.slice(0, 3)));
    const test = baseline.test;
    assert.ok(test);
    assert.equal(test.timedOut, undefined, 'named before the limit');
    const byName = new Map(test.failures.map((failure) => [failure.testName, failure.message]));
    assert.match(
      byName.get('Ledger.XunitTests.HangTests.WaitsForever') ?? '',
      /^Ledger\.XunitTests\.HangTests\.WaitsForever hung: it ran for 00:00:[2-4]\d without finishing, so xunit's long-running detection named it and Ironbees stopped the test process\./,
    );
    assert.equal(byName.has('Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance'), true);
    assert.equal(byName.has('[test run] Ledger.XunitTests'), false);
  });
});
