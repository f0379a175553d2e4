// The reviewer agent (contracts.md, Reviewer): its prompt names what it must flag, its review passes
// at score ≥ threshold with no critical issue, and each kind of issue it flags reaches the coder's
// next message word for word (through the REVIEW step's error context).

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { acceptReview, reviewPasses, reviewerMessage, runReviewer } from '../../../src/core/agents/reviewer/runner';
import type { ReviewerInput } from '../../../src/core/agents/reviewer/runner';
import { coderMessage } from '../../../src/core/agents/coder/runner';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import { demoAnswer } from '../../../src/core/llm/providers/demo/demo-model';
import { demoReview, firstAddedLine } from '../../../src/core/llm/providers/demo/demo-review';
import type { ReviewIssue, ReviewResult } from '../../../src/core/model';
import { issuesForCoder, reviewErrorContext, reviewVerdict } from '../../../src/core/workflow/review-step';
import { CALCULATOR_SOURCE, REPO_ROOT, agentRuntime, copyCalculator } from './agent-harness';
import { plan } from '../workflow/samples';

const PROMPT = path.join(REPO_ROOT, 'agents', 'reviewer', 'prompt.md');

/** Each category the reviewer must flag: the words its prompt uses, and an issue of that kind. */
const CATEGORIES: Array<{ name: string; prompt: RegExp; issue: ReviewIssue }> = [
  {
    name: 'edits outside the plan',
    prompt: /\*\*Edits outside the plan\*\*/,
    issue: { severity: 'major', file: 'src/Other.cs', line: 3, description: 'src/Other.cs is changed but the plan does not name it' },
  },
  {
    name: 'weakened or skipped tests',
    prompt: /\*\*Weakened or skipped tests\*\*.*\[Skip\]/s,
    issue: {
      severity: 'critical',
      file: 'tests/CalcTests.cs',
      line: 12,
      description: 'Divide_ReturnsQuotient is skipped with [Fact(Skip = "flaky")]',
    },
  },
  {
    name: 'debug output',
    prompt: /\*\*Debug output left behind\*\*: `Console\.WriteLine`, `Console\.Write`, `Debug\.WriteLine`/,
    issue: { severity: 'major', file: CALCULATOR_SOURCE, line: 18, description: 'Console.WriteLine debug output left in Divide' },
  },
  {
    name: 'swallowed exceptions',
    prompt: /\*\*Swallowed exceptions\*\*: an empty `catch`/,
    issue: {
      severity: 'critical',
      file: CALCULATOR_SOURCE,
      line: 20,
      description: 'catch (Exception) { } swallows the DivideByZeroException',
    },
  },
  {
    name: 'secrets in code',
    prompt: /\*\*Secrets in code\*\*: API keys, passwords, tokens/,
    issue: { severity: 'critical', file: 'src/Config.cs', line: 4, description: 'A hard-coded API key sk-live-123 in Config.ApiKey' },
  },
];

const INPUT: ReviewerInput = {
  request: 'Fix Divide',
  spec: 'Divide returns a / b.',
  plan: plan(),
  diff: '--- a/src/Calc.cs\n+++ b/src/Calc.cs\n@@ -1 +1 @@\n-return a * b;\n+return a / b;\n',
  changedFiles: ['src/Calc.cs', 'src/Other.cs'],
  tests: { before: '1 passed, 1 failed, 0 skipped (2 in all)', after: '2 passed, 0 failed, 0 skipped (2 in all)' },
  iteration: 1,
  threshold: 8,
};

/** A change whose first added line is line 12 of src/Calc.cs: two lines of context, one removed line, then the addition. */
const TWO_FILE_DIFF = [
  '--- a/src/Calc.cs',
  '+++ b/src/Calc.cs',
  '@@ -10,4 +10,4 @@',
  '   public int Divide(int a, int b)',
  '   {',
  '-    return a * b;',
  '+    return a / b;',
  '   }',
  '--- a/src/Other.cs',
  '+++ b/src/Other.cs',
  '@@ -1 +1 @@',
  '-x',
  '+y',
  '',
].join('\n');

describe('the reviewer agent', () => {
  for (const category of CATEGORIES) {
    it(`flags ${category.name}: its prompt names it, and a failing review sends the issue to the coder`, async () => {
      assert.match(await fs.readFile(PROMPT, 'utf8'), category.prompt);
      const review: ReviewResult = { score: 5, criticalIssues: [category.issue], suggestions: [], pass: false };
      const verdict = reviewVerdict(review, 'required', { iteration: 1, maxIterations: 3 });
      assert.equal(verdict.verdict, 'retry');
      const message = coderMessage({
        request: 'Fix Divide',
        spec: 'Divide returns a / b.',
        plan: plan(),
        errorContext: verdict.errorContext,
        iteration: 2,
      });
      assert.ok(message.startsWith('# Attempt 2: your previous attempt did not pass code review'), message.slice(0, 80));
      const where = `${category.issue.file}:${category.issue.line}`;
      assert.ok(message.includes(`- [${category.issue.severity}] ${where}: ${category.issue.description}`), message);
    });
  }

  it('passes at the threshold with no critical issue; a critical issue fails it whatever the score', () => {
    const minor: ReviewIssue = { severity: 'minor', file: 'a.cs', description: 'naming' };
    const critical: ReviewIssue = { severity: 'critical', file: 'a.cs', description: 'secret' };
    assert.equal(reviewPasses(8, [minor], 8), true);
    assert.equal(reviewPasses(7, [], 8), false);
    assert.equal(reviewPasses(10, [critical], 8), false);
    assert.equal(reviewPasses(9, [], 10), false);
  });

  it('sends the coder the critical and major issues, not the minor ones (every issue when only minor ones were found)', () => {
    const issues: ReviewIssue[] = [
      { severity: 'minor', file: 'a.cs', description: 'naming' },
      { severity: 'major', file: 'b.cs', line: 2, description: 'debug output' },
      { severity: 'critical', file: 'c.cs', description: 'secret' },
    ];
    assert.deepEqual(
      issuesForCoder({ score: 3, criticalIssues: issues, suggestions: [], pass: false }).map((i) => i.file),
      ['b.cs', 'c.cs'],
    );
    const text = reviewErrorContext({ score: 3, criticalIssues: issues, suggestions: [], pass: false }, 1).text;
    assert.ok(!text.includes('naming'));
    assert.deepEqual(
      issuesForCoder({ score: 6, criticalIssues: [issues[0]], suggestions: [], pass: false }).map((i) => i.file),
      ['a.cs'],
    );
  });

  it('advisory never blocks; required escalates a failing review at the last iteration', () => {
    const failing: ReviewResult = { score: 2, criticalIssues: [], suggestions: [], pass: false };
    assert.equal(reviewVerdict(failing, 'advisory', { iteration: 1, maxIterations: 5 }).verdict, 'pass');
    assert.equal(reviewVerdict(failing, 'advisory', { iteration: 1, maxIterations: 5 }).errorContext, null);
    assert.equal(reviewVerdict(failing, 'required', { iteration: 5, maxIterations: 5 }).verdict, 'escalate');
  });

  it('tidies the submitted review: paths, empty suggestions, a line of 0', () => {
    const verdict = acceptReview(
      {
        score: 9,
        criticalIssues: [{ severity: 'minor', file: '.\\src\\A.cs', line: 0, description: ' naming ', suggestedFix: '  ' }],
        suggestions: ['', ' more tests '],
      },
      8,
    );
    assert.deepEqual(verdict, {
      ok: true,
      value: {
        score: 9,
        criticalIssues: [{ severity: 'minor', file: 'src/A.cs', description: 'naming' }],
        suggestions: ['more tests'],
        pass: true,
      },
    });
  });

  it('gives the model the plan, the files outside it, the tests before → after and the diff', () => {
    const message = reviewerMessage(INPUT);
    assert.match(message, /# Files the change touches\n\n- src\/Calc\.cs\n- src\/Other\.cs \(not in the plan\)/);
    assert.match(
      message,
      /- Before the change: 1 passed, 1 failed, 0 skipped \(2 in all\)\n- After the change: 2 passed, 0 failed, 0 skipped \(2 in all\)/,
    );
    assert.ok(message.includes('```diff\n--- a/src/Calc.cs\n+++ b/src/Calc.cs\n@@ -1 +1 @@\n-return a * b;\n+return a / b;\n```'));
  });

  it('runs the bundled reviewer through the tool loop with read-only tools, ending with submit_review', async () => {
    const root = await copyCalculator();
    try {
      const model = new ScriptedModelClient([
        modelTurn([toolUseBlock('read_file', { path: CALCULATOR_SOURCE })]),
        modelTurn([toolUseBlock('submit_review', { score: '7', criticalIssues: '[]', suggestions: null })]),
      ]);
      const rt = await agentRuntime(root, model);
      const output = await runReviewer(rt, INPUT);
      assert.deepEqual({ ...output, usage: undefined }, { score: 7, criticalIssues: [], suggestions: [], pass: false, usage: undefined });
      const tools = model.requests[0].tools.map((tool) => tool.name).sort();
      assert.deepEqual(tools, ['find_references', 'find_symbols', 'list_files', 'read_file', 'search_text', 'submit_review']);
      assert.match(String(model.requests[0].system), /passes at a score of 8 or more with no `critical` issue/);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('the demo review finds the first added line of the first file a diff adds to; without one it names no issue', () => {
    const message = (diff: string): string => `# The change\n\n\`\`\`diff\n${diff}\n\`\`\`\n\nReview the change.`;
    assert.deepEqual(firstAddedLine(message(TWO_FILE_DIFF)), { file: 'src/Calc.cs', line: 12 });
    const created = '--- /dev/null\n+++ b/src/New.cs\n@@ -0,0 +1,2 @@\n+class New\n+{}\n';
    assert.deepEqual(firstAddedLine(message(created)), { file: 'src/New.cs', line: 1 });
    const deletedOnly = '--- a/src/Old.cs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-class Old {}\n';
    assert.equal(firstAddedLine(message(deletedOnly)), null);
    assert.equal(firstAddedLine('no diff here'), null);
    assert.deepEqual(demoReview('no diff here', 'L'), {
      score: 10,
      criticalIssues: [],
      suggestions: ['L No review was made: read the diff yourself.'],
    });
  });

  it('the demo model drives the reviewer too: a passing review that points at the line the change adds', async () => {
    const root = await copyCalculator();
    try {
      const rt = await agentRuntime(root, new ScriptedModelClient((request) => demoAnswer(request)));
      const output = await runReviewer(rt, { ...INPUT, diff: TWO_FILE_DIFF });
      assert.equal(output.score, 10);
      assert.equal(output.pass, true);
      assert.deepEqual(output.criticalIssues, [
        {
          severity: 'minor',
          file: 'src/Calc.cs',
          line: 12,
          description: '[scripted demo model, not an LLM] This line was changed, and I cannot judge code: nobody has reviewed it yet.',
          suggestedFix: 'Read the change yourself before you keep it.',
        },
      ]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
