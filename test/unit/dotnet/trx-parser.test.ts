import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { mergeTestResults, parseTrx, readTrxRun, trimStackTrace } from '../../../src/core/dotnet/trx-parser';

const TRX_DIR = path.join(__dirname, '..', '..', 'fixtures', 'trx');
const trx = (name: string): string => readFileSync(path.join(TRX_DIR, name), 'utf8');

describe('parseTrx', () => {
  it('reads a real xunit run with one failure (calculator fixture, dotnet 10)', () => {
    const result = parseTrx(trx('calculator-one-failure.trx'), 'Calculator.Tests');
    assert.equal(result.success, false);
    assert.deepEqual([result.total, result.passed, result.failed, result.skipped], [7, 6, 1, 0]);
    assert.equal(result.failures.length, 1);
    const [failure] = result.failures;
    assert.equal(failure?.testName, 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient');
    assert.equal(failure?.message, 'Assert.Equal() Failure: Values differ\nExpected: 2\nActual:   18');
    assert.match(failure?.stackTrace ?? '', /^ {3}at Calculator\.Tests\.CalcTests\.Divide_ReturnsQuotient\(\) in .*CalcTests\.cs:line 20/);
    assert.ok(result.durationMs > 0);
  });

  it('counts skipped tests as skipped (xunit reports them as executed), and shows deep stacks from the test method', () => {
    const result = parseTrx(trx('mixed-skipped-deep-stack.trx'));
    assert.deepEqual([result.total, result.passed, result.failed, result.skipped], [5, 2, 2, 1]);
    const deep = result.failures.find((failure) => failure.testName.endsWith('Deep_Throws'));
    assert.equal(deep?.message, 'System.InvalidOperationException : The widget <b> & "gadget" broke', 'entities decoded');
    const lines = deep?.stackTrace.split('\n') ?? [];
    // The test method first (not the 31 helper frames above it), then its callees down to the throw.
    assert.equal(lines.length, 15);
    assert.equal(lines[0], '   at Mixed.Tests.MixedTests.Deep_Throws() in /work/mixed/MixedTests.cs:line 12');
    assert.equal(lines[1], '   at Mixed.Tests.MixedTests.Recurse(Int32 depth) in /work/mixed/MixedTests.cs:line 14');
    assert.equal(lines[13], '   … 18 frames');
    assert.equal(lines[14], '   at Mixed.Tests.MixedTests.Recurse(Int32 depth) in /work/mixed/MixedTests.cs:line 14');
    assert.ok(!deep?.stackTrace.includes('MethodBaseInvoker'), "the runner's frames that called the test are dropped");
    assert.ok(result.failures.some((failure) => failure.testName === 'Mixed.Tests.MixedTests.Theory_SomeFail(text: "bb")'));
  });

  it('counts the rows of a data-driven test, not its parent, and qualifies short MSTest names', () => {
    const result = parseTrx(trx('mstest-data-driven.trx'));
    assert.deepEqual([result.total, result.passed, result.failed, result.skipped], [5, 3, 1, 1]);
    assert.deepEqual(
      result.failures.map((failure) => [failure.testName, failure.message]),
      [['Calculator.MsTests.AddTests.Add_ReturnsSum (2,2,5)', 'Assert.AreEqual failed. Expected:<5>. Actual:<4>.']],
    );
  });

  it('reports how every test ended, passed ones included', () => {
    const { outcomes } = readTrxRun(trx('calculator-one-failure.trx'));
    assert.equal(outcomes.size, 7);
    assert.equal(outcomes.get('Calculator.Tests.CalcTests.Divide_ReturnsQuotient'), 'failed');
    assert.equal(outcomes.get('Calculator.Tests.CalcTests.Multiply_ReturnsProduct(a: 2, b: 3, expected: 6)'), 'passed');
  });

  it('turns a run that failed without a failing test (a crashed test host) into a failure', () => {
    const crashed = `<?xml version="1.0" encoding="utf-8"?>
<TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results />
  <ResultSummary outcome="Failed">
    <Counters total="0" executed="0" passed="0" failed="0" />
    <RunInfos>
      <RunInfo computerName="box" outcome="Error" timestamp="2025-01-01T00:00:00Z">
        <Text>The active test run was aborted. Reason: Test host process crashed : Stack overflow.</Text>
      </RunInfo>
    </RunInfos>
  </ResultSummary>
</TestRun>`;
    const result = parseTrx(crashed, 'Widgets.Tests');
    assert.equal(result.success, false);
    assert.equal(result.failed, 1);
    assert.equal(result.failures[0]?.testName, '[test run] Widgets.Tests');
    assert.match(result.failures[0]?.message ?? '', /Test host process crashed/);
  });

  it('throws on something that is not TRX', () => {
    assert.throws(() => parseTrx('<html><body>nope</body></html>', 'X.Tests'), /Not a TRX document.*X\.Tests/);
  });
});

describe('mergeTestResults', () => {
  it('adds up one TRX per test project (multi fixture)', () => {
    const merged = mergeTestResults([
      parseTrx(trx('multi-textkit-tests.trx')),
      parseTrx(trx('multi-reporting-tests.trx')),
      parseTrx(trx('calculator-one-failure.trx')),
    ]);
    assert.deepEqual([merged.total, merged.passed, merged.failed, merged.skipped], [13, 12, 1, 0]);
    assert.equal(merged.success, false);
    assert.equal(merged.failures.length, 1);
  });

  it('is a success with nothing to merge', () => {
    assert.deepEqual(mergeTestResults([]), { success: true, total: 0, passed: 0, failed: 0, skipped: 0, failures: [], durationMs: 0 });
  });
});

describe('trimStackTrace', () => {
  it('keeps short stacks whole and drops blank lines', () => {
    assert.equal(trimStackTrace('  at A()\n\n  at B()\n'), '  at A()\n  at B()');
  });
});
