import { strict as assert } from 'node:assert';
import type { CodingState, CompilationError, IterationRecord, TestFailure } from '../../../src/core/model';
import { MAX_ATTEMPT_DIFF_CHARS, attemptOf, renderHandoff, renderInterruptedHandoff } from '../../../src/core/workflow/handoff';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, failing, plan, planOutput, runInput, twoFileEdits, workflow } from './samples';

function state(overrides: Partial<CodingState> = {}): CodingState {
  return { ...toCodingState(initialContext(runInput()), 'ESCALATE', '2025-01-01T10:00:00.000Z'), ...overrides };
}

const ITERATIONS: IterationRecord[] = [
  { iteration: 1, summary: 'Changed Add', files: ['src/Calc.cs'], buildOk: false, newErrors: 2, newFailures: 0, outcome: 'build failed' },
  { iteration: 2, summary: '', files: ['src/Calc.cs', 'src/New.cs'], buildOk: true, newErrors: 0, newFailures: 1, outcome: 'tests failed' },
];

function buildError(i: number): CompilationError {
  return { code: 'CS0103', message: `The name 'x${i}' does not exist`, filePath: 'src/Calc.cs', line: i, column: 5 };
}

function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(`## ${title}\n`);
  assert.ok(start >= 0, `no "${title}" section in:\n${markdown}`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

describe('HANDOFF.md', () => {
  it('says where the run is, why, and what was asked', () => {
    const md = renderHandoff(state({ iterationCount: 2, maxIterations: 2 }), ITERATIONS, 'Validation still fails after 2 of 2 iterations.');
    assert.match(md, /^# Ironbees hand-off — run run-1\n/);
    assert.match(md, /\*\*State:\*\* ESCALATE · \*\*Iterations:\*\* 2\/2 · \*\*Updated:\*\* 2025-01-01T10:00:00\.000Z/);
    assert.match(md, /Validation still fails after 2 of 2 iterations\./);
    assert.match(sectionOf(md, 'What was asked'), /Fix the failing Calculator test/);
  });

  it('for an interrupted run: where it stopped, what it recorded, and how to resume or revert it', () => {
    const md = renderInterruptedHandoff(state({ currentNode: 'WAIT_PLAN_APPROVAL', plan: plan(), metadata: { iterations: ITERATIONS } }));
    assert.match(md, /^# Ironbees hand-off — run run-1\n\n\*\*State:\*\* WAIT_PLAN_APPROVAL · /);
    assert.match(
      md,
      /\n\nThe run was interrupted at Approve plan: the window closed before it finished\. Resume it to go on from there, or revert it\.\n/,
    );
    assert.match(sectionOf(md, 'What was tried'), /- Iteration 1: build failed/);
    assert.match(sectionOf(md, 'Next steps'), /`ironbees resume run-1`[^]*`ironbees revert run-1`/);
  });

  it('shows the plan step by step, or says there was none', () => {
    const withPlan = renderHandoff(state({ plan: plan(), spec: 'Add must add' }), [], 'r');
    assert.match(sectionOf(withPlan, 'Plan'), /1\. \*\*MODIFY\*\* `src\/Calc\.cs` — Return a \+ b _\(Add subtracts\)_/);
    assert.match(sectionOf(withPlan, 'Plan'), /Complexity: LOW/);
    assert.match(sectionOf(withPlan, 'Specification'), /Add must add/);
    const without = renderHandoff(state(), [], 'r');
    assert.match(sectionOf(without, 'Plan'), /\(no plan was made\)/);
    assert.ok(!without.includes('## Specification'));
  });

  it('tells each iteration: outcome, counts, files and the coder’s summary', () => {
    const tried = sectionOf(renderHandoff(state(), ITERATIONS, 'r'), 'What was tried');
    assert.match(tried, /- Iteration 1: build failed — 2 new build error\(s\); changed `src\/Calc\.cs`\. Coder: Changed Add/);
    assert.match(tried, /- Iteration 2: tests failed — 1 new test failure\(s\); changed `src\/Calc\.cs`, `src\/New\.cs`\.\n/);
  });

  it('lists each changed file once', () => {
    const files = sectionOf(renderHandoff(state(), ITERATIONS, 'r'), 'Files changed by the run');
    assert.equal(files.match(/src\/Calc\.cs/g)?.length, 1);
    assert.match(files, /src\/New\.cs/);
  });

  it('lists what still fails, capped, and marks failures that were there before the run', () => {
    const errors = Array.from({ length: 23 }, (_, i) => buildError(i + 1));
    const failures: TestFailure[] = [
      { testName: 'Calc.Adds', message: 'Expected 3\nActual 1', stackTrace: 'at X', preExisting: true },
      { testName: 'Calc.Muls', message: 'Expected 6', stackTrace: '' },
    ];
    const md = renderHandoff(
      state({
        buildResult: {
          success: false,
          errors: [...errors, { ...buildError(0), filePath: null, code: 'MSB1009' }],
          warnings: [],
          durationMs: 1,
          timedOut: true,
        },
        testResult: { success: false, total: 2, passed: 0, failed: 2, skipped: 0, failures, durationMs: 1 },
      }),
      [],
      'r',
    );
    const failing = sectionOf(md, 'What still fails');
    assert.equal(failing.match(/^- Build: /gm)?.length, 20);
    assert.match(failing, /- Build: src\/Calc\.cs\(1,5\) CS0103: The name 'x1' does not exist/);
    assert.match(failing, /… and 4 more build errors/);
    assert.match(failing, /- Test: `Calc\.Adds` \(already failing before the run\) — Expected 3\n/);
    assert.match(failing, /- Test: `Calc\.Muls` — Expected 6/);
    assert.match(failing, /The build was stopped at its time limit/);
    assert.ok(!md.includes('## What was tried'), 'no empty sections');
  });

  it('names a build error that has no file', () => {
    const md = renderHandoff(
      state({
        buildResult: {
          success: false,
          errors: [{ ...buildError(0), filePath: null, code: 'MSB1009', message: 'Project file does not exist.' }],
          warnings: [],
          durationMs: 1,
        },
      }),
      [],
      'r',
    );
    assert.match(md, /- Build: \(no file\) MSB1009: Project file does not exist\./);
  });

  it('shows the error of a failed run', () => {
    const md = renderHandoff(state({ currentNode: 'FAILED', metadata: { error: 'plan: the model refused' } }), [], 'failed');
    assert.match(sectionOf(md, 'Error'), /plan: the model refused/);
    assert.ok(!renderHandoff(state(), [], 'r').includes('## Error'));
  });

  it('shows the cost and how to go on or undo', () => {
    const md = renderHandoff(
      state({ usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 50, cacheWriteTokens: 7, costUsd: 0.01234567 } }),
      [],
      'r',
    );
    assert.match(sectionOf(md, 'Cost'), /1200 input tokens, 300 output tokens, 50 cache reads, 7 cache writes — \$0\.0123/);
    assert.match(sectionOf(md, 'Next steps'), /`ironbees resume run-1`/);
    assert.match(sectionOf(md, 'Next steps'), /`ironbees revert run-1`/);
  });

  it('a stopped or ended run does not suggest continuing it', () => {
    for (const currentNode of ['CANCELLED', 'FAILED'] as const) {
      const next = sectionOf(renderHandoff(state({ currentNode }), [], 'The run was stopped by a person.'), 'Next steps');
      assert.doesNotMatch(next, /ironbees resume/, currentNode);
      assert.match(next, /`ironbees revert run-1`[^]*cannot be resumed; to try again, start a new run/);
    }
    assert.equal(
      sectionOf(renderHandoff(state({ currentNode: 'SUCCESS' }), [], 'ok'), 'Next steps').trim(),
      '## Next steps\n\n- Undo every change of this run: `ironbees revert run-1`',
    );
  });

  describe('with the proposals the person decided on', () => {
    const calc = makeFileEdit('src/Calc.cs', 'a - b\n', 'a + b\n');
    const notes = makeFileEdit('docs/Notes.md', null, 'Use ```diff fences```\n');
    const attempts = [
      attemptOf(1, 'rejected', [calc, notes], 'No notes file,\nplease.'),
      attemptOf(1, 'applied', [calc]),
      attemptOf(2, 'applied', [makeFileEdit('src/Calc.cs', 'a + b\n', 'b + a\n')], '- src/New.cs: the whole file was rejected'),
      attemptOf(3, 'rejected', [calc], 'Stop.'),
    ];
    const md = renderHandoff(state({ metadata: { attempts } }), ITERATIONS, 'r');

    it('lists rejected proposals under "What was tried", in order, with the feedback', () => {
      const tried = sectionOf(md, 'What was tried')
        .split('\n')
        .filter((line) => line.startsWith('- '));
      assert.deepEqual(tried, [
        '- Iteration 1: proposal rejected by the person — `src/Calc.cs`, `docs/Notes.md`. Feedback: No notes file, please.',
        '- Iteration 1: build failed — 2 new build error(s); changed `src/Calc.cs`. Coder: Changed Add',
        '- Iteration 2: tests failed — 1 new test failure(s); changed `src/Calc.cs`, `src/New.cs`. The person rejected part of it: - src/New.cs: the whole file was rejected',
        '- Iteration 3: proposal rejected by the person — `src/Calc.cs`. Feedback: Stop.',
      ]);
    });

    it("shows each proposal's diffs, in a fence no backticks in the diff can close", () => {
      const diffs = sectionOf(md, 'Diffs tried');
      const headings = diffs.split('\n').filter((line) => line.startsWith('### '));
      assert.deepEqual(headings, [
        '### Iteration 1 — rejected by the person',
        '### Iteration 1 — applied',
        '### Iteration 2 — applied',
        '### Iteration 3 — rejected by the person',
      ]);
      assert.match(diffs, /````diff\n[^]*\+Use ```diff fences```\n````/);
      assert.match(diffs, /-a \+ b\n\+b \+ a/);
    });

    it('lists a proposal that was applied but never validated', () => {
      const unvalidated = renderHandoff(state({ metadata: { attempts: [attemptOf(1, 'applied', [calc])] } }), [], 'r');
      assert.match(sectionOf(unvalidated, 'What was tried'), /- Iteration 1: applied `src\/Calc\.cs`; validation did not finish\./);
      assert.match(sectionOf(unvalidated, 'Files changed by the run'), /src\/Calc\.cs/);
    });

    it('caps each diff, and shows the diffs of the latest proposals only', () => {
      const big = makeFileEdit('src/Big.cs', null, Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n'));
      const capped = attemptOf(1, 'applied', [big]);
      assert.ok(capped.diff.length < MAX_ATTEMPT_DIFF_CHARS + 60, `${capped.diff.length} characters`);
      assert.match(capped.diff, /… \d+ more characters of diff not shown$/);
      const many = Array.from({ length: 12 }, (_, i) => attemptOf(i + 1, 'rejected', [calc], 'no'));
      const diffs = sectionOf(renderHandoff(state({ metadata: { attempts: many } }), [], 'r'), 'Diffs tried');
      assert.match(diffs, /\(4 earlier proposal\(s\) not shown/);
      assert.equal(diffs.match(/^### /gm)?.length, 8);
    });
  });

  it('written by a run: a rejected proposal, then the accepted one that still fails, with their diffs', async function () {
    this.timeout(15_000);
    const ws = new TempWorkspace();
    try {
      const steps = new FakeSteps()
        .script('captureBaseline', { output: baseline() })
        .script('plan', { output: planOutput() })
        .script('code', { output: codeOutput() }, { output: codeOutput(twoFileEdits().slice(0, 1), 'Only Calc') })
        .script('validate', { output: failing(1) });
      const orchestrator = orchestratorOver(ws.host, steps);
      const flow = workflow({ workspaceRoot: ws.dir, maxIterations: 1, approval: { plan: 'never', diffs: 'always' } });
      const stream = new StateStream(orchestrator.execute('Fix Add', flow, AbortSignal.timeout(10_000)));
      const first = await stream.until('WAIT_DIFF_APPROVAL');
      await orchestrator.approve(first.stateId, { type: 'REJECT', feedback: 'No notes file' });
      await stream.until('WAIT_DIFF_APPROVAL');
      await orchestrator.approve(first.stateId, { type: 'APPROVE' });
      await stream.until('WAIT_HUMAN');
      const handoff = ws.runFile(first.stateId, 'HANDOFF.md') ?? '';
      assert.match(
        sectionOf(handoff, 'What was tried'),
        /- Iteration 1: proposal rejected by the person — `src\/Calc\.cs`, `src\/Notes\.md`\. Feedback: No notes file\n- Iteration 1: tests failed/,
      );
      const diffs = sectionOf(handoff, 'Diffs tried');
      assert.match(diffs, /### Iteration 1 — rejected by the person\n\n```diff\n[^]*\+# Notes/);
      assert.match(diffs, /### Iteration 1 — applied\n\n```diff\n[^]*\+ {2}int Add\(int a, int b\) => a \+ b;/);
    } finally {
      ws.remove();
    }
  });
});
