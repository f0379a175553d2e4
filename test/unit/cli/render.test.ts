import { strict as assert } from 'node:assert';
import pc from 'picocolors';
import { diffStat, renderDiff, renderEditSummary, renderFileEdit } from '../../../src/cli/render/diff';
import { renderPlan } from '../../../src/cli/render/plan';
import { describeTransition, formatUsage, renderEscalation, renderTests } from '../../../src/cli/render/state';
import { colorsFor } from '../../../src/cli/terminal';
import { CREATE_EDIT, MODIFY_EDIT, PLAN, makeState } from './fixtures';

const plain = pc.createColors(false);
const colored = pc.createColors(true);
const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const CYAN = '\u001b[36m';
const ESC = '\u001b[';

describe('cli rendering', () => {
  describe('plan', () => {
    it('shows summary, numbered steps with action and file, affected files and complexity', () => {
      const text = renderPlan(PLAN, plain);
      assert.match(text, /complexity LOW, 3 steps/);
      assert.match(text, /Fix Add so the failing test passes\./);
      assert.match(text, /^ {3}1\. MODIFY +src\/Calc\.cs$/m);
      assert.match(text, /^ {3}2\. CREATE +tests\/AddTests\.cs$/m);
      assert.match(text, /Return a \+ b/);
      assert.match(text, /why: Add subtracts today/);
      assert.match(text, /Affected files: src\/Calc\.cs, tests\/AddTests\.cs, README\.md/);
      assert.ok(!text.includes(ESC));
    });
  });

  describe('diff', () => {
    it('counts additions and removals, even a removed line that starts with "--"', () => {
      assert.deepEqual(diffStat(MODIFY_EDIT.diffText), { added: 1, removed: 2, hunks: 1 });
      assert.deepEqual(diffStat(CREATE_EDIT.diffText), { added: 1, removed: 0, hunks: 1 });
      assert.deepEqual(diffStat(''), { added: 0, removed: 0, hunks: 0 });
    });

    it('colours + green, - red, @@ cyan when colour is on', () => {
      const lines = renderDiff(MODIFY_EDIT.diffText, colored).split('\n');
      const line = (needle: string): string => lines.find((l) => l.includes(needle)) ?? '';
      assert.ok(line('@@ -1,3').startsWith(CYAN));
      assert.ok(line('a + b').startsWith(GREEN));
      assert.ok(line('a - b').startsWith(RED));
      assert.ok(line('--- a removed comment').startsWith(RED));
      assert.ok(!line(' class Calc').includes(ESC));
    });

    it('writes plain text when colour is off', () => {
      const text = renderFileEdit(MODIFY_EDIT, plain);
      assert.ok(!text.includes(ESC));
      assert.match(text, /^MODIFY src\/Calc\.cs \(\+1 -2\)$/m);
      assert.match(text, /^- {2}int Add\(int a, int b\) => a - b;$/m);
      assert.equal(renderEditSummary(CREATE_EDIT, plain), 'CREATE tests/AddTests.cs (+1 -0)');
    });

    it('colour follows the stream and NO_COLOR', () => {
      const pipe = { isTTY: false } as unknown as NodeJS.WritableStream;
      const fakeTty = { isTTY: true } as unknown as NodeJS.WritableStream;
      assert.equal(colorsFor(pipe, {}).red('x'), 'x');
      assert.notEqual(colorsFor(fakeTty, {}).red('x'), 'x');
      assert.equal(colorsFor(fakeTty, { NO_COLOR: '1' }).red('x'), 'x');
      assert.notEqual(colorsFor(pipe, { FORCE_COLOR: '1' }).red('x'), 'x');
    });
  });

  describe('progress', () => {
    it('prints a step line with iteration and node', () => {
      const lines = describeTransition(null, makeState({ currentNode: 'VALIDATE', iterationCount: 2 }), plain);
      assert.deepEqual(lines, ['[2/5] VALIDATE building and testing…']);
    });

    it('says when only the tests that failed last time were run (failing-first), so 0/1 is not read as every test', () => {
      const test = {
        success: false,
        total: 1,
        passed: 0,
        failed: 1,
        skipped: 0,
        failures: [{ testName: 'T.Add', message: 'Expected 3', stackTrace: '', preExisting: true }],
        durationMs: 400,
      };
      assert.deepEqual(renderTests({ ...test, onlyLastFailures: true }, plain), [
        '  tests failing: 0/1 passed, 1 failed, 0 skipped (0.4s)',
        '    only the tests that failed last time were run, and they still fail: the other tests were not run this time',
        '    ✗ T.Add (already failing before the run) — Expected 3',
      ]);
      assert.equal(renderTests(test, plain).length, 2, 'said only when it is so');
    });

    it('prints the baseline once, and the plan when it appears or changes', () => {
      const baseline = {
        build: { success: true, errors: [], warnings: [], durationMs: 1500 },
        test: {
          success: false,
          total: 3,
          passed: 2,
          failed: 1,
          skipped: 0,
          failures: [{ testName: 'T.Add', message: 'Expected 3\nActual -1', stackTrace: '' }],
          durationMs: 800,
        },
        capturedAt: 'now',
      };
      const planning = makeState({ currentNode: 'PLAN', baseline });
      const first = describeTransition(makeState(), planning, plain).join('\n');
      assert.match(first, /Baseline/);
      assert.match(first, /tests failing: 2\/3 passed, 1 failed, 0 skipped/);
      assert.match(first, /T\.Add — Expected 3$/m);
      const waiting = makeState({ currentNode: 'WAIT_PLAN_APPROVAL', baseline, plan: PLAN });
      const second = describeTransition(planning, waiting, plain).join('\n');
      assert.ok(!second.includes('Baseline'));
      assert.match(second, /Plan \(complexity LOW/);
      const coding = makeState({ currentNode: 'CODE', baseline, plan: PLAN, iterationCount: 1 });
      assert.deepEqual(describeTransition(waiting, coding, plain), ['[1/5] CODE the coder is editing…']);
    });

    it('lists proposed files at the diff gate', () => {
      const lines = describeTransition(
        null,
        makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT, CREATE_EDIT] }),
        plain,
      );
      assert.match(lines[0], /2 files changed/);
      assert.deepEqual(lines.slice(1), ['  MODIFY src/Calc.cs (+1 -2)', '  CREATE tests/AddTests.cs (+1 -0)']);
    });

    it('reports build errors, tests and cost after validation', () => {
      const state = makeState({
        currentNode: 'DECIDE',
        iterationCount: 1,
        buildResult: {
          success: false,
          errors: [{ code: 'CS1002', message: '; expected', filePath: 'src/Calc.cs', line: 3, column: 9 }],
          warnings: [],
          durationMs: 2000,
        },
      });
      const text = describeTransition(null, state, plain).join('\n');
      assert.match(text, /build failed: 1 error/);
      assert.match(text, /src\/Calc\.cs\(3,9\): CS1002 ; expected/);
      assert.match(text, /1,200 in \/ 340 out tokens · \$0\.0123/);
    });

    it('ends with success, failure or the escalation hand-off', () => {
      assert.match(describeTransition(null, makeState({ currentNode: 'SUCCESS' }), plain).join('\n'), /SUCCESS done/);
      assert.match(
        describeTransition(null, makeState({ currentNode: 'FAILED', metadata: { error: 'model refused' } }), plain).join('\n'),
        /the run failed: model refused/,
      );
      const waiting = makeState({
        currentNode: 'WAIT_HUMAN',
        iterationCount: 5,
        metadata: { handoffPath: '/w/.ironbees/runs/run-1/HANDOFF.md' },
      });
      const text = describeTransition(null, waiting, plain).join('\n');
      assert.match(text, /after 5 of 5 iterations/);
      assert.match(text, /hand-off: \/w\/\.ironbees\/runs\/run-1\/HANDOFF\.md/);
      assert.match(renderEscalation(makeState(), plain), /hand-off: \(not written\)/);
    });

    it('says so when the person rejected proposal after proposal, not "validation still fails"', () => {
      const attempts = [1, 1, 1].map((iteration) => ({ iteration, outcome: 'rejected' }));
      const text = renderEscalation(makeState({ iterationCount: 1, maxIterations: 2, metadata: { attempts } }), plain);
      assert.equal(text.split('\n')[0], 'Escalation: you rejected 3 proposals in a row in iteration 1; give the coder guidance, or stop.');
    });

    it('formats usage with thousands separators and four decimals', () => {
      assert.equal(
        formatUsage({ inputTokens: 1234567, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 1.5 }),
        '1,234,567 in / 0 out tokens · $1.5000',
      );
    });
  });
});
