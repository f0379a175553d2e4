// Hangs and crashes are data, on Microsoft.Testing.Platform with real dotnet: a copy of mtp-ledger where an
// MSTest test kills its test host (Environment.FailFast) and an xunit v3 test never returns. The baseline
// reports the crash naming the test that was running, and the hang as a timed-out failure of its project,
// with the tests that did finish counted. One restore and build for both cases.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    cpSync(path.join(__dirname, '..', 'fixtures', 'mtp-ledger'), root, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    writeFileSync(
      path.join(root, 'tests', 'Ledger.MSTests', 'CrashTests.cs'),
      'namespace Ledger.MSTests;\n\n[Microsoft.VisualStudio.TestTools.UnitTesting.TestClass]\npublic sealed class CrashTests\n{\n    [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethod]\n    public void KillsTheHost() => Environment.FailFast("the ledger file is corrupt");\n}\n',
    );
    writeFileSync(
      path.join(root, 'tests', 'Ledger.XunitTests', 'HangTests.cs'),
      'namespace Ledger.XunitTests;\n\npublic class HangTests\n{\n    [Xunit.Fact]\n    public void WaitsForever() => Thread.Sleep(Timeout.Infinite);\n}\n',
    );
  });
  after(async () => {
    await shutdownBuildServers(createNodeHost(root, { logger: quietLogger }));
    rmSync(root, { recursive: true, force: true });
  });

  it('a crashed test host names the running test; a hung test is stopped at the time limit; both are failures', async () => {
    const host = createNodeHost(root, { logger: quietLogger });
    const baseline = await captureBaseline({ host, timeouts: { buildMs: 600_000, testMs: 90_000 } });
    assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors.slice(0, 3)));
    const test = baseline.test;
    assert.ok(test);
    assert.equal(test.success, false);
    assert.equal(test.timedOut, true);
    const byName = new Map(test.failures.map((failure) => [failure.testName, failure.message]));
    assert.match(
      byName.get('[test run] Ledger.MSTests') ?? '',
      /^The test host crashed while running Ledger\.MSTests\.CrashTests\.KillsTheHost: the test session did not complete: the test process likely crashed \(Microsoft\.Testing\.Platform exit code 7\)\./,
    );
    assert.equal(
      byName.get('[test run] Ledger.XunitTests'),
      'The tests did not finish within 90 s and were stopped with all their processes. A test may hang (a deadlock, a wait for input or network).',
    );
  });
});
