// The bench report: exact Markdown for a fixed input, totals, and the HTML page escaping task text.

import assert from 'node:assert/strict';
import { renderHtml, renderMarkdown, totalsOf } from '../../../src/cli/commands/bench/report';
import type { BenchReport, BenchTaskReport } from '../../../src/cli/commands/bench/report';

function task(over: Partial<BenchTaskReport> = {}): BenchTaskReport {
  return {
    id: 'calc-1',
    request: 'Fix Divide',
    runId: '20260101-000000-abcdef',
    finalNode: 'SUCCESS',
    pass: true,
    failToPass: [{ name: 'Calc.Tests.Divide', ok: true }],
    passToPass: [{ name: 'Calc.Tests.Add', ok: true }],
    iterationsToGreen: 2,
    iterations: 2,
    protocol: { turns: 9, plainTextTurns: 1, malformedTurns: 1, maxTokensStops: 0, budgetExhaustions: 0, stuckStops: 0 },
    edits: { strReplaceFailures: [{ kind: 'NotFound', count: 2 }], refusedCreates: 1 },
    compile: { checkCodeCalls: 3, checkCodeFailures: 1, preReviewChecks: 2, preReviewFailures: 1 },
    integrity: { testFilesTouched: [], skipsAdded: 0 },
    tokens: { input: 1000, output: 200, cacheRead: 3000, cacheWrite: 0 },
    cacheShare: 0.75,
    costUsd: 0.0123,
    wallMs: 61_500,
    ...over,
  };
}

function report(tasks: BenchTaskReport[]): BenchReport {
  return { schemaVersion: 1, startedAt: '2026-01-01T00:00:00.000Z', model: 'anthropic claude-x', tasks, totals: totalsOf(tasks) };
}

describe('bench report', () => {
  it('renders the exact Markdown of a fixed report', () => {
    const failed = task({
      id: 'calc-2',
      request: 'Add a | pipe',
      pass: false,
      failToPass: [{ name: 'Calc.Tests.Mod', ok: false }],
      passToPass: [],
      iterationsToGreen: null,
      integrity: { testFilesTouched: ['tests/CalcTests.cs'], skipsAdded: null },
      cacheShare: null,
      costUsd: null,
      wallMs: 1000,
      note: 'no validation after an edit was recorded',
    });
    assert.equal(
      renderMarkdown(report([task(), failed])),
      [
        '# ironbees bench',
        '',
        'Model: anthropic claude-x · started 2026-01-01T00:00:00.000Z',
        '',
        '**1/2 passed (50%) · cost n/a · wall 62.5s · tokens 2000 in, 400 out, 6000 cache read**',
        '',
        '## calc-1',
        '',
        '> Fix Divide',
        '',
        '| figure | value |',
        '| --- | --- |',
        '| pass | yes |',
        '| run | 20260101-000000-abcdef (SUCCESS) |',
        '| fail to pass | Calc.Tests.Divide ok |',
        '| pass to pass | Calc.Tests.Add ok |',
        '| iterations to green | 2 |',
        '| iterations | 2 |',
        '| protocol | 9 turns, 1 plain-text, 1 malformed, 0 max_tokens stops, 0 budget exhaustions, 0 stuck stops |',
        '| edits | str_replace failures: NotFound 2; refused creates: 1 |',
        '| compile loop | check_code 3 (1 failed); pre-review checks 2 (1 failed) |',
        '| integrity | test files touched: none; skips added: 0 |',
        '| tokens | 1000 in, 200 out, 3000 cache read, 0 cache write; cache share 75% |',
        '| cost | $0.0123 |',
        '| wall time | 61.5s |',
        '',
        '## calc-2',
        '',
        '> Add a \\| pipe',
        '',
        '| figure | value |',
        '| --- | --- |',
        '| pass | no |',
        '| run | 20260101-000000-abcdef (SUCCESS) |',
        '| fail to pass | Calc.Tests.Mod FAIL |',
        '| pass to pass | none |',
        '| iterations to green | n/a |',
        '| iterations | 2 |',
        '| protocol | 9 turns, 1 plain-text, 1 malformed, 0 max_tokens stops, 0 budget exhaustions, 0 stuck stops |',
        '| edits | str_replace failures: NotFound 2; refused creates: 1 |',
        '| compile loop | check_code 3 (1 failed); pre-review checks 2 (1 failed) |',
        '| integrity | test files touched: tests/CalcTests.cs; skips added: n/a |',
        '| tokens | 1000 in, 200 out, 3000 cache read, 0 cache write; cache share n/a |',
        '| cost | n/a |',
        '| wall time | 1.0s |',
        '| note | no validation after an edit was recorded |',
        '',
      ].join('\n'),
    );
  });

  it('adds up the totals; a known cost sums', () => {
    assert.deepEqual(totalsOf([task(), task({ pass: false, costUsd: 0.01, wallMs: 500 })]), {
      tasks: 2,
      passed: 1,
      passRate: 0.5,
      costUsd: 0.0223,
      wallMs: 62_000,
      tokens: { input: 2000, output: 400, cacheRead: 6000, cacheWrite: 0 },
    });
  });

  it('escapes task text and test names in the HTML page, which loads nothing from outside', () => {
    const html = renderHtml(
      report([task({ id: 'x', request: '<script>alert("x")</script> & \'q\'', failToPass: [{ name: 'T<b>', ok: true }] })]),
    );
    assert.ok(html.includes('<blockquote>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</blockquote>'), html);
    assert.ok(html.includes('<td>T&lt;b&gt; ok</td>'), html);
    assert.ok(!html.includes('<script>'), 'no raw script tag');
    assert.ok(!/\b(src|href)=/.test(html), 'no external asset');
    assert.ok(html.startsWith('<!DOCTYPE html>'));
  });
});
