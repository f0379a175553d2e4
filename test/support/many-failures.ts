// A test suite that a change breaks wholesale: N failing tests with long messages and deep stacks, as a
// real runner prints them (assertion library frames, then helper frames in the workspace, then the test
// method, then the runner's frames). Shared by the stored-results test and bench/state-size.bench.ts.

import * as path from 'node:path';

export interface GeneratedFailure {
  name: string;
  outcome: 'Failed';
  message: string;
  stackTrace: string;
}

const HELPER_DEPTH = 30;
const RUNNER_DEPTH = 12;

export function testNameOf(index: number): string {
  return `Ledger.Tests.PostingTests.Posts_balanced_entries_${index}`;
}

/** The `index`th failure: a ~3 KB message and a 45-frame stack whose test-method frame is the 32nd. */
export function generatedFailure(workspaceRoot: string, index: number): GeneratedFailure {
  const name = testNameOf(index);
  const testsFile = path.join(workspaceRoot, 'tests', 'Ledger.Tests', 'PostingTests.cs');
  const helpersFile = path.join(workspaceRoot, 'tests', 'Ledger.Tests', 'Support', 'LedgerAssert.cs');
  const message = [
    `Assert.Equal() Failure: Collections differ at index ${index}`,
    ...Array.from(
      { length: 40 },
      (_, row) =>
        `  Expected entry ${row}: { Account = "4000-${row}", Debit = ${row * 10}.00, Credit = 0.00 } but found a different posting`,
    ),
  ].join('\n');
  const frames = [
    '   at Xunit.Assert.Equal[T](IEnumerable`1 expected, IEnumerable`1 actual, IEqualityComparer`1 comparer)',
    ...Array.from(
      { length: HELPER_DEPTH },
      (_, depth) =>
        `   at Ledger.Tests.Support.LedgerAssert.CheckLevel${depth}(Ledger ledger, Int32 depth) in ${helpersFile}:line ${100 + depth}`,
    ),
    `   at ${name}() in ${testsFile}:line ${20 + index}`,
    ...Array.from(
      { length: RUNNER_DEPTH },
      (_, depth) => `   at System.Reflection.MethodBaseInvoker.InvokeStub_${depth}(Object obj, IntPtr* args)`,
    ),
  ];
  return { name, outcome: 'Failed', message, stackTrace: frames.join('\n') };
}

export function generatedFailures(workspaceRoot: string, count: number): GeneratedFailure[] {
  return Array.from({ length: count }, (_, index) => generatedFailure(workspaceRoot, index));
}
