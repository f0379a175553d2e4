// The real CLI on the framework × solution-shape fixtures, each with a failing data-driven test and a
// known fix, reaching SUCCESS with exactly the counts `dotnet test` reports on the fixed code:
//  - nunit/: NUnit 3, 4 and 5 ([TestCase]) in a classic .sln, central package management,
//    Directory.Build.props/targets, TreatWarningsAsErrors: 9 tests (baseline 2 failing).
//  - mstest/: MSTest 3 ([DataRow]) through a solution filter (.slnf) that leaves out a project that
//    does not compile; TreatWarningsAsErrors turns the coder's stray warning into an error with its code.
//  - xunit-multi/: xunit v2 ([Theory]/[InlineData]) in a .slnx, multi-targeted net10.0;net8.0: the
//    framework without an installed runtime is named as not tested.
// Real dotnet, the real SDK, a fake Messages API.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli, traceEvents } from '../support/cli-harness';

function planFor(filePath: string, description: string): Record<string, unknown> {
  return {
    spec: `${description}; every test passes.`,
    plan: {
      summary: description,
      steps: [{ number: 1, description, actionType: 'MODIFY', filePath, rationale: 'the failing tests say so' }],
      affectedFiles: [filePath],
      complexity: 'LOW',
    },
  };
}

function replace(filePath: string, oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: filePath, old_str: oldStr, new_str: newStr });
}

interface FinalState {
  stateId: string;
  currentNode: string;
  iterationCount: number;
  baseline: { test: { total: number; passed: number; failed: number; failures: Array<{ testName: string }> } };
  testResult: { total: number; passed: number; failed: number; skipped: number; skippedFrameworks?: string[] };
  buildResult: { success: boolean };
}

function validationDetails(workspace: string, runId: string): string[] {
  return traceEvents(workspace, runId)
    .filter((event) => event.kind === 'validation')
    .map((event) => `${String(event.phase)}: ${String(event.detail)}`);
}

describe('ironbees CLI on the framework and solution-shape fixtures (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let workspace: string | null = null;
  let env: Record<string, string>;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  afterEach(async () => {
    await fake.close();
    if (workspace) removeDir(workspace);
    workspace = null;
  });

  it('nunit: NUnit 3/4/5 [TestCase] in a .sln with central packages and Directory.Build files: 9 of 9 after the fix', async () => {
    workspace = copyFixture('nunit');
    const SHAPES = 'src/Geometry/Shapes.cs';
    fake.enqueue(
      toolUse('submit_plan', planFor(SHAPES, 'Fix RectanglePerimeter')),
      replace(SHAPES, '=> 2 * width + height;', '=> 2 * (width + height);'),
      toolUse('submit_changes', { summary: 'The perimeter adds both sides twice.' }),
    );
    const result = await runCli(['run', 'Fix the perimeter', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as FinalState;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    // dotnet test on the fixture: NUnit3 2, NUnit4 3, NUnit5 4 (2 failing before the fix).
    assert.deepEqual(
      { total: final.baseline.test.total, passed: final.baseline.test.passed, failed: final.baseline.test.failed },
      { total: 9, passed: 7, failed: 2 },
    );
    assert.deepEqual(final.baseline.test.failures.map((failure) => failure.testName).sort(), [
      'Geometry.NUnit5.Tests.PerimeterTests.RectanglePerimeter_IsTwiceTheSumOfTheSides(2,3,10)',
      'Geometry.NUnit5.Tests.PerimeterTests.RectanglePerimeter_IsTwiceTheSumOfTheSides(5,5,20)',
    ]);
    assert.deepEqual(
      { total: final.testResult.total, passed: final.testResult.passed, failed: final.testResult.failed },
      { total: 9, passed: 9, failed: 0 },
    );
    const details = validationDetails(workspace, final.stateId);
    assert.match(details[0] ?? '', /^baseline: Geometry\.sln: build ok, 0 warnings; 9 tests: 7 passed, 2 failed, 0 skipped$/);
    assert.match(details.at(-1) ?? '', /^test: .*9 tests: 9 passed, 0 failed, 0 skipped/);
  });

  it('mstest: MSTest 3 [DataRow] through a .slnf; a warning is an error with its code under TreatWarningsAsErrors; 5 of 5 after the fix', async () => {
    workspace = copyFixture('mstest');
    let coderHeardCs0168 = false;
    const MONEY = 'src/Ledger/Money.cs';
    fake.enqueue(
      toolUse('submit_plan', planFor(MONEY, 'Divide the tax rate by 100')),
      // A stray unused variable first: CS0168 is a warning, and an error here.
      replace(
        MONEY,
        '=> Math.Round(amount + amount * ratePercent, 2);',
        '{ int unused; return Math.Round(amount + amount * ratePercent / 100, 2); }',
      ),
      toolUse('submit_changes', { summary: 'Divided the rate by 100.' }),
      (request) => {
        coderHeardCs0168 = /error CS0168|CS0168/.test(JSON.stringify(request.body.messages));
        return replace(
          MONEY,
          '{ int unused; return Math.Round(amount + amount * ratePercent / 100, 2); }',
          '=> Math.Round(amount + amount * ratePercent / 100, 2);',
        );
      },
      toolUse('submit_changes', { summary: 'Removed the unused variable.' }),
    );
    const result = await runCli(['run', 'Fix the tax', '--workspace', workspace, '--target', 'Ledger.Tests.slnf', '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as FinalState;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 2);
    assert.ok(coderHeardCs0168, 'the coder hears the warning-as-error by its code');
    assert.deepEqual(final.baseline.test.failures.map((failure) => failure.testName).sort(), [
      'Ledger.Tests.MoneyTests.WithTax_AddsThePercentage ("100","20","120")',
      'Ledger.Tests.MoneyTests.WithTax_AddsThePercentage ("19.99","10","21.99")',
    ]);
    assert.deepEqual(
      { total: final.testResult.total, passed: final.testResult.passed, failed: final.testResult.failed },
      { total: 5, passed: 5, failed: 0 },
    );
    const details = validationDetails(workspace, final.stateId);
    // The filter leaves out samples/Ledger.Sample, which does not compile: the baseline build is clean.
    assert.match(details[0] ?? '', /^baseline: Ledger\.Tests\.slnf: build ok, 0 warnings; 5 tests: 3 passed, 2 failed, 0 skipped$/);
    const events = traceEvents(workspace, final.stateId);
    const firstBuild = events.find((event) => event.kind === 'validation' && event.phase === 'build');
    assert.equal(firstBuild?.ok, false);
    assert.match(String(firstBuild?.detail), /build failed, 1 errors/);
    assert.match(readFileSync(path.join(workspace, MONEY), 'utf8'), /=> Math\.Round\(amount \+ amount \* ratePercent \/ 100, 2\);/);
  });

  it('xunit-multi: xunit v2 [Theory] in a .slnx targeting net10.0;net8.0: net8.0 named as not tested, 5 of 5 after the fix', async function () {
    // Where the .NET 8 runtime is installed both frameworks run (10 results); this machine has only .NET 10.
    if (/^Microsoft\.NETCore\.App 8\.0\./m.test(spawnSync('dotnet', ['--list-runtimes'], { encoding: 'utf8' }).stdout)) this.skip();
    workspace = copyFixture('xunit-multi');
    const TEMPERATURE = 'src/Units/Temperature.cs';
    fake.enqueue(
      toolUse('submit_plan', planFor(TEMPERATURE, 'Subtract 32 before scaling')),
      replace(TEMPERATURE, '=> fahrenheit - 32 * 5 / 9;', '=> (fahrenheit - 32) * 5 / 9;'),
      toolUse('submit_changes', { summary: 'Parenthesised the subtraction.' }),
    );
    const result = await runCli(['run', 'Fix Fahrenheit to Celsius', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    const final = result.states.at(-1) as unknown as FinalState;
    assert.equal(final.currentNode, 'SUCCESS');
    assert.deepEqual({ total: final.baseline.test.total, failed: final.baseline.test.failed }, { total: 5, failed: 3 });
    assert.deepEqual(
      { total: final.testResult.total, passed: final.testResult.passed, failed: final.testResult.failed },
      { total: 5, passed: 5, failed: 0 },
    );
    assert.deepEqual(
      final.testResult.skippedFrameworks?.map((entry) => entry.replace(/\(installed: [^)]*\)/, '(installed: …)')),
      ['Units.Tests net8.0 (the .NET 8.0 runtime is not installed (installed: …))'],
    );
    assert.match(
      result.stdout + result.stderr,
      /^ {4}not tested: Units\.Tests net8\.0 \(the \.NET 8\.0 runtime is not installed \(installed: [^)]+\)\)$/m,
    );
    const details = validationDetails(workspace, final.stateId);
    assert.match(
      details[0] ?? '',
      /^baseline: Units\.slnx: build ok, 0 warnings; 5 tests: 2 passed, 3 failed, 0 skipped; not tested: Units\.Tests net8\.0 \(the \.NET 8\.0 runtime is not installed/,
    );
  });
});
