// The real CLI on a .NET 10 solution whose global.json selects Microsoft.Testing.Platform, with an
// xunit v3 and an MSTest 4 project (both executables): the baseline counts every test of both (exactly
// what `dotnet test` reports: 6 tests, 2 failing), and the fix reaches SUCCESS. Real dotnet, packages
// from the NuGet feed, a fake Messages API.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli, traceEvents } from '../support/cli-harness';

interface FinalState {
  stateId: string;
  currentNode: string;
  iterationCount: number;
  baseline: { test: { total: number; passed: number; failed: number; failures: Array<{ testName: string; message: string }> } };
  testResult: { total: number; passed: number; failed: number; skipped: number };
}

describe('ironbees CLI on Microsoft.Testing.Platform (global.json runner, xunit v3 + MSTest 4; real dotnet)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let workspace: string | null = null;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
    if (workspace) removeDir(workspace);
    workspace = null;
  });

  it('mtp-ledger: the baseline reads both projects’ TRX (6 tests, 2 failing), the fix in Withdraw reaches SUCCESS with 6 of 6', async () => {
    workspace = copyFixture('mtp-ledger');
    const ACCOUNT = 'src/Ledger/Account.cs';
    fake.enqueue(
      toolUse('read_file', { path: ACCOUNT }),
      toolUse('submit_plan', {
        spec: 'Withdraw subtracts the amount from the balance; every test passes.',
        plan: {
          summary: 'Fix Withdraw',
          steps: [{ number: 1, description: 'Subtract in Withdraw', actionType: 'MODIFY', filePath: ACCOUNT, rationale: 'it adds' }],
          affectedFiles: [ACCOUNT],
          complexity: 'LOW',
        },
      }),
      // A first attempt that misses: the failing-first round (the 2 tests that failed) is the verdict.
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: ACCOUNT,
        old_str: 'if (amount > Balance) throw',
        new_str: 'if (amount >= Balance + 1) throw',
      }),
      toolUse('submit_changes', { summary: 'Tightened the funds check.' }),
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: ACCOUNT,
        old_str: 'throw new InvalidOperationException("Insufficient funds");\n        Balance += amount;',
        new_str: 'throw new InvalidOperationException("Insufficient funds");\n        Balance -= amount;',
      }),
      toolUse('submit_changes', { summary: 'Withdraw subtracts.' }),
    );
    const result = await runCli(['run', 'Make the ledger tests pass', '--workspace', workspace, '--yes', '--json'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as FinalState;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 2);

    // `dotnet test` on this solution reports: total 6, failed 2, succeeded 4.
    const baseline = final.baseline.test;
    assert.deepEqual({ total: baseline.total, passed: baseline.passed, failed: baseline.failed }, { total: 6, passed: 4, failed: 2 });
    assert.deepEqual(baseline.failures.map((failure) => failure.testName).sort(), [
      'Ledger.MSTests.FeeTests.Withdraw_LeavesRemainder',
      'Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance',
    ]);
    assert.match(
      baseline.failures.find((failure) => failure.testName.startsWith('Ledger.Xunit'))?.message ?? '',
      /Expected: 70\nActual: {3}130/,
    );
    assert.deepEqual(
      {
        total: final.testResult.total,
        passed: final.testResult.passed,
        failed: final.testResult.failed,
        skipped: final.testResult.skipped,
      },
      { total: 6, passed: 6, failed: 0, skipped: 0 },
    );
    assert.match(readFileSync(path.join(workspace, ACCOUNT), 'utf8'), /Balance -= amount;/);

    const testEvents = traceEvents(workspace, final.stateId).filter((event) => event.kind === 'validation' && event.phase === 'test');
    // Iteration 1: only the two tests that failed in the baseline ran (filtered per platform), and still failed.
    assert.equal(
      testEvents[0]?.detail,
      'Ledger.MSTests, Ledger.XunitTests: 2 tests: 0 passed, 2 failed, 0 skipped; failing-first: the tests that failed last time still fail, the other tests of Ledger.MSTests, Ledger.XunitTests were not run',
    );
    const tests = testEvents.at(-1);
    assert.equal(testEvents.length, 2);
    assert.match(String(tests?.detail), /Ledger\.MSTests/);
    assert.match(String(tests?.detail), /Ledger\.XunitTests/);
    assert.match(String(tests?.detail), /6 tests: 6 passed, 0 failed, 0 skipped/);
  });

  it('mtp-vstest-mode: an MSTest 4 project on the platform without a global.json runner runs directly; DataRow cases compare by name', async () => {
    workspace = copyFixture('mtp-vstest-mode');
    const CHANGE = 'src/Wallet/Change.cs';
    fake.enqueue(
      toolUse('submit_plan', {
        spec: 'Change.Coins takes the largest coins first; every test passes.',
        plan: {
          summary: 'Largest coins first',
          steps: [
            { number: 1, description: 'Order the values descending', actionType: 'MODIFY', filePath: CHANGE, rationale: 'greedy change' },
          ],
          affectedFiles: [CHANGE],
          complexity: 'LOW',
        },
      }),
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: CHANGE,
        old_str: 'values.OrderBy(v => v)',
        new_str: 'values.OrderByDescending(v => v)',
      }),
      toolUse('submit_changes', { summary: 'Largest first.' }),
    );
    const result = await runCli(['run', 'Fix the change maker', '--workspace', workspace, '--yes', '--json'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as FinalState;
    assert.equal(final.currentNode, 'SUCCESS');
    const baseline = final.baseline.test;
    // dotnet run on the test application reports: total 4, failed 2, succeeded 2.
    assert.deepEqual({ total: baseline.total, passed: baseline.passed, failed: baseline.failed }, { total: 4, passed: 2, failed: 2 });
    assert.deepEqual(baseline.failures.map((failure) => failure.testName).sort(), [
      'Wallet.Tests.ChangeTests.Coins_IsTheFewest (30,2)',
      'Wallet.Tests.ChangeTests.Coins_IsTheFewest (65,4)',
    ]);
    assert.deepEqual(
      { total: final.testResult.total, passed: final.testResult.passed, failed: final.testResult.failed },
      { total: 4, passed: 4, failed: 0 },
    );
  });
});
