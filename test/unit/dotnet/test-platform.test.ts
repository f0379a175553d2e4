// Which platform runs a test project, and what Microsoft.Testing.Platform's console and exit codes say
// where no report does. Console samples in test/fixtures/mtp-output are real `dotnet test` output (.NET 10
// SDK, MTP 2.5, xunit v3 4.0.2, MSTest 4.5.2) with the workspace path replaced by /ws.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CONSOLE_LABEL, blameHang, crashingTestIn, readMtpConsole } from '../../../src/core/dotnet/mtp-output';
import { readProjectFile } from '../../../src/core/dotnet/project-file';
import { describeMtpExit, findTestMode, mtpReportArgs, runKindOf } from '../../../src/core/dotnet/test-platform';
import { createMemoryHost } from '../../support/memory-host';

const FIXTURES = path.resolve(__dirname, '../../fixtures');
const sample = (name: string): string => readFileSync(path.join(FIXTURES, 'mtp-output', name), 'utf8');
const ledgerProject = (relPath: string): ReturnType<typeof readProjectFile> =>
  readProjectFile(readFileSync(path.join(FIXTURES, 'mtp-ledger', relPath), 'utf8'), path.join('/ws', relPath));

describe('test platform detection', () => {
  const MTP_GLOBAL = '{ "sdk": { "version": "10.0.100" }, "test": { "runner": "Microsoft.Testing.Platform" } }';

  it('reads the SDK mode from the nearest global.json, from the target folder up to the workspace root', async () => {
    const host = createMemoryHost({
      'global.json': '{ "sdk": { "version": "10.0.100" } }',
      'app/global.json': MTP_GLOBAL,
      'app/App.slnx': '<Solution />',
    });
    const root = host.workspaceRoot;
    assert.deepEqual(await findTestMode(host, path.join(root, 'app')), { mode: 'mtp', cwd: path.join(root, 'app') });
    assert.deepEqual(await findTestMode(host, root), { mode: 'vstest', cwd: root });
    assert.deepEqual(await findTestMode(host, path.join(root, 'other', 'deep')), { mode: 'vstest', cwd: root });
    assert.deepEqual(await findTestMode(createMemoryHost({}), createMemoryHost({}).workspaceRoot), {
      mode: 'vstest',
      cwd: createMemoryHost({}).workspaceRoot,
    });
  });

  it('never reads a global.json outside the workspace, and takes a broken one for VSTest with a warning', async () => {
    const host = createMemoryHost({ 'global.json': '{ "test": ' });
    assert.deepEqual(await findTestMode(host, path.dirname(host.workspaceRoot)), { mode: 'vstest', cwd: host.workspaceRoot });
    assert.equal(host.logs.filter((log) => log.level === 'warn' && /global\.json is not valid JSON/.test(log.message)).length, 1);
  });

  it('tells the fixture projects apart: xunit v3 (a test project without Microsoft.NET.Test.Sdk) and MSTest 4 with its runner', () => {
    const xunit = ledgerProject('tests/Ledger.XunitTests/Ledger.XunitTests.csproj');
    assert.equal(xunit.isTest, true);
    assert.deepEqual(xunit.testRunner, {
      mtpRunner: false,
      dotnetTestSupport: false,
      xunitV3: true,
      trxReport: false,
      hangDump: false,
      runSettings: false,
    });
    const mstest = ledgerProject('tests/Ledger.MSTests/Ledger.MSTests.csproj');
    assert.deepEqual(mstest.testRunner, {
      mtpRunner: true,
      dotnetTestSupport: false,
      xunitV3: false,
      trxReport: true,
      hangDump: false,
      runSettings: false,
    });
    assert.equal(ledgerProject('src/Ledger/Ledger.csproj').isTest, false);
  });

  it('reads the other opt-ins: MSTest.Sdk (unless UseVSTest), UseMicrosoftTestingPlatformRunner, TestingPlatformDotnetTestSupport', () => {
    assert.equal(readProjectFile('<Project Sdk="MSTest.Sdk/4.5.2"></Project>', '/ws/A.csproj').testRunner.mtpRunner, true);
    assert.equal(
      readProjectFile(
        '<Project Sdk="MSTest.Sdk/4.5.2"><PropertyGroup><UseVSTest>true</UseVSTest></PropertyGroup></Project>',
        '/ws/A.csproj',
      ).testRunner.mtpRunner,
      false,
    );
    const xunitMtp = readProjectFile(
      '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><UseMicrosoftTestingPlatformRunner>true</UseMicrosoftTestingPlatformRunner><TestingPlatformDotnetTestSupport>True</TestingPlatformDotnetTestSupport></PropertyGroup><ItemGroup><PackageReference Include="xunit.v3.mtp-v2" Version="4.0.2" /><PackageReference Include="Microsoft.Testing.Extensions.TrxReport" Version="2.5.2" /></ItemGroup></Project>',
      '/ws/A.csproj',
    );
    assert.deepEqual(xunitMtp.testRunner, {
      mtpRunner: true,
      dotnetTestSupport: true,
      xunitV3: true,
      trxReport: true,
      hangDump: false,
      runSettings: false,
    });
    assert.equal(xunitMtp.isTest, true);
  });

  it('runs each project the way its platform expects', () => {
    const mstest = ledgerProject('tests/Ledger.MSTests/Ledger.MSTests.csproj').testRunner;
    const xunit = ledgerProject('tests/Ledger.XunitTests/Ledger.XunitTests.csproj').testRunner;
    const vstest = readProjectFile(
      '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="NUnit" /></ItemGroup></Project>',
      '/ws/A.csproj',
    ).testRunner;
    assert.deepEqual(
      [runKindOf('mtp', mstest), runKindOf('mtp', xunit), runKindOf('mtp', vstest)],
      ['mtp-dotnet-test', 'mtp-dotnet-test', 'vstest-in-mtp'],
    );
    assert.deepEqual(
      [runKindOf('vstest', mstest), runKindOf('vstest', xunit), runKindOf('vstest', vstest), runKindOf('vstest')],
      ['mtp-direct', 'vstest', 'vstest', 'vstest'],
    );
    // xunit v3 writes TRX with its own option; MSTest 4 brings Microsoft's TrxReport extension; others may have none.
    assert.deepEqual([mtpReportArgs(xunit), mtpReportArgs(mstest), mtpReportArgs(vstest)], [['--report-xunit-trx'], ['--report-trx'], []]);
  });
});

describe('Microsoft.Testing.Platform exit codes and console', () => {
  it('names every documented exit code, and says when one is not documented', () => {
    assert.equal(describeMtpExit(8), 'zero tests ran (Microsoft.Testing.Platform exit code 8)');
    assert.equal(
      describeMtpExit(7),
      'the test session did not complete: the test process likely crashed (Microsoft.Testing.Platform exit code 7)',
    );
    assert.equal(describeMtpExit(13), 'the run stopped after the maximum number of failed tests (Microsoft.Testing.Platform exit code 13)');
    assert.equal(describeMtpExit(42), 'exit code 42, which Microsoft.Testing.Platform does not document');
    assert.equal(describeMtpExit(null), 'the test application ended without an exit code');
  });

  it('reads the summary and the failed tests of a real run, labelled as read from the console', () => {
    const result = readMtpConsole(sample('ledger-2-failed.txt'), 'Ledger');
    assert.ok(result);
    assert.deepEqual(
      { total: result.total, passed: result.passed, failed: result.failed, skipped: result.skipped, success: result.success },
      { total: 6, passed: 4, failed: 2, skipped: 0, success: false },
    );
    assert.deepEqual(
      result.failures.map((failure) => failure.testName),
      ['Withdraw_LeavesRemainder', 'Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance'],
    );
    assert.equal(result.failures[1]?.message, `Assert.Equal() Failure: Values differ\nExpected: 70\nActual:   130\n${CONSOLE_LABEL}`);
    assert.equal(
      result.failures[1]?.stackTrace.split('\n')[0],
      'at Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance() in /ws/tests/Ledger.XunitTests/AccountTests.cs:14',
    );
    assert.equal(readMtpConsole('Build succeeded.\n', 'Ledger'), null);
  });

  it('names the test a crashed host was running, from the crash stack (not a framework frame)', () => {
    assert.equal(crashingTestIn(sample('mstest-failfast.txt')), 'Ledger.MSTests.HangTests.Z_Crashes');
    assert.equal(crashingTestIn('Process terminated.\n   at System.Environment.FailFast(System.String)\n'), null);
    assert.equal(crashingTestIn('no crash here\n   at Foo.Bar.Baz()\n'), null);
  });

  it('reads VSTest blame-hang: the inactivity time, and the running tests when VSTest names them', () => {
    // Real output (xunit 2, blame-hang-dump-type none): blame fired but named no test.
    assert.deepEqual(blameHang(sample('vstest-blame-hang.txt')), { seconds: '10 seconds', running: [] });
    const named = `${sample('vstest-blame-hang.txt')}\nThe test running when the crash occurred:\nCalculator.Tests.HangTests.Waits_Forever\nCalculator.Tests.Other.Waits\n\nTotal tests: Unknown\n`;
    assert.deepEqual(blameHang(named), {
      seconds: '10 seconds',
      running: ['Calculator.Tests.HangTests.Waits_Forever', 'Calculator.Tests.Other.Waits'],
    });
    assert.equal(blameHang('Test Run Aborted.\nThe active test run was aborted. Reason: Test host process crashed'), null);
  });
});
