// Results stored once: a change that breaks 500 tests (long messages, deep stacks) through the real
// baseline and validate steps. Every failure in full goes to the run folder once; no state snapshot
// (a `--json` line) and no state.json grows past 256 KB, and what is shown still says what failed.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { ValidationOutcome } from '../../../src/core/dotnet/validator';
import { generatedFailures, testNameOf } from '../../support/many-failures';
import { runThatBreaks as breakingRun } from './breaking-run';
import { tempWorkspaceEachTest } from './orchestrator-harness';

const LIMIT = 256 * 1024;
const FAILING = 500;

describe('validation results stored once', function () {
  this.timeout(60_000);
  const suite = tempWorkspaceEachTest();
  const { controllers } = suite;

  async function runThatBreaks(baselineFailing: number) {
    const controller = new AbortController();
    controllers.push(controller);
    return breakingRun(suite.ws.dir, { tests: FAILING, failing: FAILING, baselineFailing }, controller.signal);
  }

  it('keeps every --json line and state.json under 256 KB with 500 failures, the full results in one file', async () => {
    const { states, runId } = await runThatBreaks(0);
    const lines = states.map((state) => Buffer.byteLength(JSON.stringify(state)));
    const largest = Math.max(...lines);
    assert.ok(largest <= LIMIT, `largest --json line ${largest} bytes`);
    const stateBytes = suite.ws.read(path.join('.ironbees', 'runs', runId, 'state.json'))?.length ?? Infinity;
    assert.ok(stateBytes <= LIMIT, `state.json ${stateBytes} bytes`);

    const last = states[states.length - 1];
    const test = last?.testResult;
    assert.ok(test);
    const resultsFile = `.ironbees/runs/${runId}/validations/1.json`;
    assert.deepEqual(
      [test.total, test.failed, test.failures.length, test.failuresOmitted, test.resultsFile, test.split],
      [FAILING + 1, FAILING, 50, 450, resultsFile, { new: FAILING, still: 0, fixed: 0 }],
    );
    // Shown: the test method's frame first, workspace-relative, then its helpers down to the throw.
    const shown = test.failures[7]?.stackTrace.split('\n') ?? [];
    assert.deepEqual(shown, [
      `   at ${testNameOf(7)}() in tests/Ledger.Tests/PostingTests.cs:line 27`,
      '   at Ledger.Tests.Support.LedgerAssert.CheckLevel29(Ledger ledger, Int32 depth) in tests/Ledger.Tests/Support/LedgerAssert.cs:line 129',
      '   … 29 frames',
      '   at Xunit.Assert.Equal[T](IEnumerable`1 expected, IEnumerable`1 actual, IEqualityComparer`1 comparer)',
    ]);
    assert.equal(test.failures[7]?.message.length, 400);
    assert.deepEqual([last?.errorContext?.newTestFailures.length, last?.errorContext?.newTestFailuresOmitted], [20, 480]);

    // The file holds every failure with its whole message.
    const full = JSON.parse(suite.ws.read(resultsFile)?.toString('utf8') ?? '{}') as Omit<ValidationOutcome, 'newTestFailures'> & {
      iteration: number;
      newTestFailures: string[];
    };
    assert.equal(full.iteration, 1);
    assert.equal(full.test?.failures.length, FAILING);
    assert.equal(full.newTestFailures[499], testNameOf(499));
    assert.equal(full.test?.failures[499]?.message, generatedFailures(suite.ws.dir, FAILING)[499]?.message);
    assert.equal(
      full.test?.failures[499]?.stackTrace.split('\n')[0],
      `   at ${testNameOf(499)}() in tests/Ledger.Tests/PostingTests.cs:line 519`,
    );

    // The coder's context was built from the full outcome: the same text as before, under its cap.
    assert.match(
      last?.errorContext?.text ?? '',
      /^Validation failed \(iteration 1\): 500 test\(s\) fail\.\n## Tests: 500 of 501 failed \(500 new, 0 already failing before any edit\)/,
    );
    assert.match(last?.errorContext?.text ?? '', /… and \d+ more failing test\(s\): /);

    const handoff = suite.ws.runFile(runId, 'HANDOFF.md') ?? '';
    assert.ok(handoff.includes(`- … and 480 more failing tests (every failure in full: \`${resultsFile}\`)`), handoff);
  });

  it('compares with every baseline failure, read back from its file, though the state lists only 20', async () => {
    const { states, runId } = await runThatBreaks(300);
    const last = states[states.length - 1];
    assert.deepEqual([last?.baseline?.test?.failures.length, last?.baseline?.test?.failuresOmitted], [20, 280]);
    assert.equal(last?.baseline?.test?.resultsFile, `.ironbees/runs/${runId}/validations/baseline.json`);
    assert.deepEqual(last?.testResult?.split, { new: 200, still: 300, fixed: 0 });
    assert.deepEqual([last?.errorContext?.preExistingFailures.length, last?.errorContext?.preExistingFailuresOmitted], [50, 250]);
    const largest = Math.max(...states.map((state) => Buffer.byteLength(JSON.stringify(state))));
    assert.ok(largest <= LIMIT, `largest --json line ${largest} bytes`);
    const stateBytes = suite.ws.read(path.join('.ironbees', 'runs', runId, 'state.json'))?.length ?? Infinity;
    assert.ok(stateBytes <= LIMIT, `state.json ${stateBytes} bytes`);
  });
});
