// Parameterised test cases keep their identity across runs, so the baseline comparison says exactly
// which case was fixed, which still fails and which newly fails. Each pair of TRX files was written by
// two separate real `dotnet test` runs (.NET 10, VSTest) on the fixture of that framework: the baseline
// on the fixture as it is, the "after" on a deliberately half-right edit (see test/fixtures/README.md).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Baseline } from '../../../src/core/model';
import { compareTests } from '../../../src/core/dotnet/baseline-diff';
import { readTrxRun } from '../../../src/core/dotnet/trx-parser';

const DIR = path.join(__dirname, '..', '..', 'fixtures', 'trx', 'parameterised');

function compare(framework: string): { fixed: string[]; still: string[]; newly: string[]; counts: number[] } {
  const before = readTrxRun(readFileSync(path.join(DIR, `${framework}-baseline.trx`), 'utf8'), framework);
  const after = readTrxRun(readFileSync(path.join(DIR, `${framework}-after.trx`), 'utf8'), framework);
  const baseline: Baseline = {
    build: { success: true, errors: [], warnings: [], durationMs: 0 },
    test: before.result,
    capturedAt: '2026-11-24T00:00:00Z',
  };
  const comparison = compareTests(after.result, after.outcomes, baseline);
  return {
    fixed: [...comparison.fixedFailures].sort(),
    still: [...comparison.preExistingFailures].sort(),
    newly: comparison.newTestFailures.map((failure) => failure.testName).sort(),
    counts: [after.result.total, after.result.passed, after.result.failed],
  };
}

describe('baseline comparison of parameterised cases (real TRX from two runs each)', () => {
  it('xunit v2 [Theory]/[InlineData]: one row fixed, two still failing, one newly failing', () => {
    const T = 'Units.Tests.TemperatureTests';
    assert.deepEqual(compare('xunit2'), {
      fixed: [`${T}.FahrenheitToCelsius(fahrenheit: 32, celsius: 0)`],
      still: [`${T}.FahrenheitToCelsius(fahrenheit: -40, celsius: -40)`, `${T}.FahrenheitToCelsius(fahrenheit: 212, celsius: 100)`],
      newly: [`${T}.CelsiusToFahrenheit(celsius: 100, fahrenheit: 212)`],
      counts: [5, 2, 3],
    });
  });

  it('MSTest 3 [DataRow]: one row fixed, one still failing, one newly failing', () => {
    const M = 'Ledger.Tests.MoneyTests.WithTax_AddsThePercentage';
    assert.deepEqual(compare('mstest3'), {
      fixed: [`${M} ("100","20","120")`],
      still: [`${M} ("19.99","10","21.99")`],
      newly: [`${M} ("100","0","100")`],
      counts: [5, 3, 2],
    });
  });

  it('NUnit 5 [TestCase]: one case fixed, one still failing, one newly failing', () => {
    const N = 'Geometry.NUnit5.Tests.PerimeterTests.RectanglePerimeter_IsTwiceTheSumOfTheSides';
    assert.deepEqual(compare('nunit5'), {
      fixed: [`${N}(2,3,10)`],
      still: [`${N}(5,5,20)`],
      newly: [`${N}(0,0,0)`],
      counts: [4, 2, 2],
    });
  });
});
