// `ironbees bench` end to end: the real CLI over a one-task file (the calculator sample, whose Divide
// test fails), the scripted demo model, real dotnet. The task runs on a fresh copy, and the report
// files say exactly what the run recorded.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';
import type { CliResult } from '../support/cli-harness';

const SAMPLE = path.join(REPO_ROOT, 'samples', 'calculator');
const FIXED = 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient';
const KEPT = ['Calculator.Tests.CalcTests.Add_ReturnsSum', 'Calculator.Tests.CalcTests.Divide_ByZero_Throws'];

describe('ironbees bench (real CLI, demo model, real dotnet, one task)', function () {
  this.timeout(420_000);
  let dir: string;
  let result: CliResult;
  const sampleBefore = readFileSync(path.join(SAMPLE, 'src', 'Calculator', 'Calculator.cs'), 'utf8');

  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-bench-test-'));
    const tasks = [
      'tasks:',
      '  - id: calculator-divide',
      `    repo: ${JSON.stringify(SAMPLE)}`,
      '    request: "Fix the failing <Calculator> test"',
    ];
    tasks.push('    fail_to_pass:', `      - ${FIXED}`, '    pass_to_pass:', ...KEPT.map((name) => `      - ${name}`));
    writeFileSync(path.join(dir, 'tasks.yaml'), `${tasks.join('\n')}\n`);
    result = await runCli(['bench', path.join(dir, 'tasks.yaml'), '--demo', '--out', path.join(dir, 'out'), '--max-cost', '1'], {});
  });
  after(() => removeDir(dir));

  it('exits 0 with the pass count, and leaves the repository it copied untouched', () => {
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), `1/1 tasks passed · report in ${path.join(dir, 'out')}`);
    assert.equal(readFileSync(path.join(SAMPLE, 'src', 'Calculator', 'Calculator.cs'), 'utf8'), sampleBefore);
    assert.equal(existsSync(path.join(SAMPLE, '.ironbees')), false, 'the run happened on the copy');
  });

  it('writes report.json with the exact verdict and figures of the run', () => {
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    assert.equal(report.schemaVersion, 1);
    assert.equal(report.model, 'demo (scripted)');
    assert.deepEqual(report.totals.tasks, 1);
    assert.deepEqual(report.totals.passed, 1);
    assert.equal(report.totals.passRate, 1);
    const [task] = report.tasks;
    assert.equal(task.id, 'calculator-divide');
    assert.equal(task.request, 'Fix the failing <Calculator> test');
    assert.equal(task.pass, true);
    assert.equal(task.finalNode, 'SUCCESS');
    assert.deepEqual(task.failToPass, [{ name: FIXED, ok: true }]);
    assert.deepEqual(
      task.passToPass,
      KEPT.map((name) => ({ name, ok: true })),
    );
    assert.equal(task.iterationsToGreen, 1);
    assert.equal(task.iterations, 1);
    // The demo planner's and coder's turns, and the reviewer's one (bench runs review as the CLI does).
    assert.deepEqual(task.protocol, {
      turns: 7,
      plainTextTurns: 0,
      malformedTurns: 0,
      maxTokensStops: 0,
      budgetExhaustions: 0,
      stuckStops: 0,
    });
    assert.deepEqual(task.edits, { strReplaceFailures: [], refusedCreates: 0 });
    assert.deepEqual(task.compile, { checkCodeCalls: 0, checkCodeFailures: 0, preReviewChecks: 1, preReviewFailures: 0 });
    assert.deepEqual(task.integrity, { testFilesTouched: [], skipsAdded: 0 });
    assert.equal(task.costUsd, 0);
    // The run's folder is kept beside the report, laid out as a workspace for `ironbees trace`.
    const state = JSON.parse(
      readFileSync(path.join(dir, 'out', 'runs', 'calculator-divide', '.ironbees', 'runs', task.runId, 'state.json'), 'utf8'),
    );
    assert.equal(state.runId, task.runId);
  });

  it('writes the Markdown and the self-contained HTML page, the task text escaped', () => {
    const md = readFileSync(path.join(dir, 'out', 'report.md'), 'utf8');
    assert.ok(md.includes(`| fail to pass | ${FIXED} ok |`), md);
    assert.ok(md.includes('| iterations to green | 1 |'), md);
    const html = readFileSync(path.join(dir, 'out', 'report.html'), 'utf8');
    assert.ok(html.includes('<blockquote>Fix the failing &lt;Calculator&gt; test</blockquote>'), html);
    assert.ok(html.includes('calculator-divide · <span class="pass">pass</span>'), html);
  });

  it('keeps each run where `ironbees trace` reads its transcript', async () => {
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    const trace = await runCli(['trace', report.tasks[0].runId, '--json', '-w', path.join(dir, 'out', 'runs', 'calculator-divide')], {});
    assert.equal(trace.code, 0, trace.stderr);
    const summary = JSON.parse(trace.stdout.trim().split('\n').at(-1) ?? '');
    assert.equal(summary.kind, 'summary');
    assert.equal(summary.turns, 7);
    assert.equal(summary.currentNode, 'SUCCESS');
  });
});
