// Failing-first filters: each platform's own syntax, by method (every row of a failing theory reruns),
// and no filter where one could not be exact.

import assert from 'node:assert/strict';
import { filterArgsFor, methodOf } from '../../../src/core/dotnet/failing-first';

const MSTEST_MTP = { mtpRunner: true, dotnetTestSupport: false, xunitV3: false, trxReport: true, hangDump: false, runSettings: false };
const XUNIT_V3 = { mtpRunner: false, dotnetTestSupport: false, xunitV3: true, trxReport: false, hangDump: false, runSettings: false };
const NONE = { mtpRunner: false, dotnetTestSupport: false, xunitV3: false, trxReport: false, hangDump: false, runSettings: false };

describe('failing-first filters', () => {
  it('reduces data-driven rows to their method', () => {
    assert.equal(
      methodOf('Ledger.XunitTests.AccountTests.Deposit_RejectsNonPositive(amount: -1)'),
      'Ledger.XunitTests.AccountTests.Deposit_RejectsNonPositive',
    );
    assert.equal(
      methodOf('Ledger.MSTests.FeeTests.Fee_IsOnePercentBelowOneThousand (100,1)'),
      'Ledger.MSTests.FeeTests.Fee_IsOnePercentBelowOneThousand',
    );
    assert.equal(methodOf('A.B.C'), 'A.B.C');
  });

  it('uses each platform’s syntax', () => {
    const names = ['A.T.One(x: 1)', 'A.T.One(x: 2)', 'A.T.Two'];
    assert.deepEqual(filterArgsFor('vstest', NONE, names), ['--filter', 'FullyQualifiedName=A.T.One|FullyQualifiedName=A.T.Two']);
    assert.deepEqual(filterArgsFor('mtp-dotnet-test', MSTEST_MTP, names), [
      '--filter',
      'FullyQualifiedName=A.T.One|FullyQualifiedName=A.T.Two',
    ]);
    assert.deepEqual(filterArgsFor('mtp-dotnet-test', XUNIT_V3, names), ['--filter-method', 'A.T.One', '--filter-method', 'A.T.Two']);
  });

  it('gives no filter where it could not be exact', () => {
    assert.equal(filterArgsFor('vstest', NONE, []), null);
    assert.equal(filterArgsFor('vstest', NONE, ['A.T.Generic<List|int>']), null);
    assert.equal(filterArgsFor('vstest-in-mtp', NONE, ['A.T.One']), null);
    assert.equal(filterArgsFor('mtp-dotnet-test', NONE, ['A.T.One']), null);
  });
});
