// Plans in phases on the real statechart with fake steps: the phases run one at a time in
// dependency order, each with its own iteration budget, each coder seeing its own phase and the
// completed ones' hand-offs; the state lists every phase with its status and iterations.

import { strict as assert } from 'node:assert';
import type { ExecutionPlan, PlanPhase } from '../../../src/core/model';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { renderHandoff } from '../../../src/core/workflow/handoff';
import { coderMessage } from '../../../src/core/agents/coder/runner';
import { readyPhases } from '../../../src/core/workflow/phases';
import { FakeSteps } from './fake-steps';
import { MachineRun } from './machine-driver';
import { baseline, codeOutput, failing, passing, plan, runInput, usage } from './samples';

function phase(id: string, dependencies: string[], maxIterations?: number): PlanPhase {
  return {
    id,
    name: `Phase ${id.toUpperCase()}`,
    description: `Does ${id}`,
    dependencies,
    ...(maxIterations ? { maxIterations } : {}),
    steps: [{ number: 1, description: `edit ${id}`, actionType: 'MODIFY', filePath: `src/${id}.cs`, rationale: '' }],
    affectedFiles: [`src/${id}.cs`],
  };
}

/** C (after A and B) listed first: the order comes from the dependencies, not the list. */
function phasedPlan(): ExecutionPlan {
  const phases = [phase('c', ['a', 'b']), phase('a', [], 2), phase('b', [], 3)];
  return {
    summary: 'Three changes',
    steps: phases.flatMap((p) => p.steps).map((s, i) => ({ ...s, number: i + 1 })),
    affectedFiles: phases.flatMap((p) => p.affectedFiles),
    complexity: 'MEDIUM',
    phases,
  };
}

const UNATTENDED = { approval: { plan: 'never', diffs: 'never' } } as const;

describe('workflow: plans in phases', () => {
  it('runs A, B, then C (which depends on both), each with its own iterations, and lists every phase', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: { spec: 'S', plan: phasedPlan(), usage: usage() } })
      .script(
        'code',
        { output: codeOutput(undefined, 'A first try') },
        { output: codeOutput(undefined, 'A done') },
        { output: codeOutput(undefined, 'B done') },
        { output: codeOutput(undefined, 'C first try') },
        { output: codeOutput(undefined, 'C done') },
      )
      .script(
        'validate',
        { output: failing(1) },
        { output: passing() },
        { output: passing() },
        { output: failing(4) },
        { output: passing() },
      );
    const run = new MachineRun(steps, { ...UNATTENDED, maxIterations: 4 });
    const end = await run.reach('SUCCESS');
    const code = steps.inputs.code;
    assert.deepEqual(
      code.map((input) => [input.iteration, input.phase?.id, input.plan.steps.map((s) => s.filePath)]),
      [
        [1, 'a', ['src/a.cs']],
        [2, 'a', ['src/a.cs']],
        [3, 'b', ['src/b.cs']],
        [4, 'c', ['src/c.cs']],
        [5, 'c', ['src/c.cs']],
      ],
    );
    // Each phase's first coder starts clean: no error context of the phase before.
    assert.deepEqual(
      code.map((input) => input.errorContext?.iteration ?? null),
      [null, 1, null, null, 4],
    );
    // C's coder sees its own phase and what A and B did, not their steps.
    assert.deepEqual(code[3]?.phase, {
      id: 'c',
      name: 'Phase C',
      description: 'Does c',
      index: 3,
      count: 3,
      completed: [
        { id: 'a', name: 'Phase A', handoff: 'A done\nFiles changed: src/Calc.cs, src/Notes.md' },
        { id: 'b', name: 'Phase B', handoff: 'B done\nFiles changed: src/Calc.cs, src/Notes.md' },
      ],
    });
    // The budgets: A 2 (its own), B 3 (its own), C 4 (the run's).
    assert.deepEqual(
      steps.inputs.decide.map((d) => [d.iteration, d.maxIterations]),
      [
        [1, 2],
        [2, 2],
        [3, 5],
        [4, 7],
        [5, 7],
      ],
    );
    const state = toCodingState(end.context, 'SUCCESS', 'now');
    assert.equal(state.iterationCount, 5);
    assert.deepEqual(
      state.phases?.map((p) => [p.phaseId, p.status, p.iterationsRun, p.maxIterations, p.startedAt !== null, p.endedAt !== null]),
      [
        ['c', 'complete', 2, 4, true, true],
        ['a', 'complete', 2, 2, true, true],
        ['b', 'complete', 1, 3, true, true],
      ],
    );
    run.stop();
  });

  it('with a required review, the reviewer reads the whole change once, after the last phase, and that phase completes', async () => {
    const twoPhases: ExecutionPlan = { ...phasedPlan(), phases: [phase('a', []), phase('b', ['a'])] };
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: { spec: 'S', plan: twoPhases, usage: usage() } })
      .script('code', { output: codeOutput(undefined, 'A done') }, { output: codeOutput(undefined, 'B done') })
      .script('validate', { output: passing() }, { output: passing() });
    const run = new MachineRun(steps, { ...UNATTENDED, maxIterations: 4, review: { mode: 'required', threshold: 8 } });
    await run.reach('REVIEW');
    assert.equal(steps.inputs.code.length, 2, 'no review between the phases');
    assert.deepEqual(
      steps.inputs.review[0].plan.phases?.map((p) => p.id),
      ['a', 'b'],
      'the whole plan',
    );
    steps.script('review', {
      output: {
        verdict: 'pass',
        review: { score: 9, criticalIssues: [], suggestions: [], pass: true },
        errorContext: null,
        usage: usage(),
      },
    });
    const end = await run.reach('SUCCESS');
    assert.deepEqual(
      toCodingState(end.context, 'SUCCESS', 'now').phases?.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['a', 'complete', 1],
        ['b', 'complete', 1],
      ],
    );
    run.stop();
  });

  it('a phase out of iterations escalates; more iterations from the person go to that phase, then the next starts', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: { spec: 'S', plan: phasedPlan(), usage: usage() } })
      .script('code', { output: codeOutput() }, { output: codeOutput() }, { output: codeOutput() }, { output: codeOutput() })
      .script('validate', { output: failing(1) }, { output: failing(2) }, { output: passing() }, { output: failing(4) })
      .script('writeHandoff', { output: { handoffPath: 'HANDOFF.md' } });
    const run = new MachineRun(steps, UNATTENDED);
    const waiting = await run.reach('WAIT_HUMAN');
    assert.deepEqual(
      toCodingState(waiting.context, 'WAIT_HUMAN', 'now').phases?.map((p) => [p.phaseId, p.status, p.iterationsRun, p.maxIterations]),
      [
        ['c', 'pending', 0, 5],
        ['a', 'running', 2, 2],
        ['b', 'pending', 0, 3],
      ],
    );
    run.actor.send({ type: 'CONTINUE', guidance: 'Try harder', additionalIterations: 1 });
    await run.reach('CODE', 4);
    const state = toCodingState(run.snapshot.context, 'CODE', 'now');
    assert.deepEqual(
      state.phases?.map((p) => [p.phaseId, p.status, p.iterationsRun, p.maxIterations]),
      [
        ['c', 'pending', 0, 5],
        ['a', 'complete', 3, 3],
        ['b', 'running', 1, 3],
      ],
    );
    assert.deepEqual(
      readyPhases(run.snapshot.context).map((p) => p.id),
      [],
    );
    run.stop();
  });

  it('a plan with steps is one phase; a failed run shows the running phase in error', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: { spec: 'S', plan: plan(), usage: usage() } })
      .script('code', { error: new Error('model gone') });
    const run = new MachineRun(steps, UNATTENDED);
    const failed = await run.reach('FAILED');
    assert.equal(steps.inputs.code[0]?.phase, undefined);
    assert.deepEqual(steps.inputs.code[0]?.plan, plan());
    const state = toCodingState(failed.context, 'FAILED', 'now');
    assert.deepEqual(
      state.phases?.map((p) => [p.phaseId, p.name, p.status, p.iterationsRun, p.maxIterations, p.error]),
      [['main', 'The plan', 'error', 1, 5, 'model gone']],
    );
    run.stop();
  });
});

describe('workflow: phases in the coder’s message and HANDOFF.md', () => {
  it('the coder reads its phase and the completed phases’ hand-offs before its plan', () => {
    const message = coderMessage({
      request: 'R',
      spec: 'S',
      plan: plan(),
      errorContext: null,
      iteration: 3,
      phase: {
        id: 'c',
        name: 'Docs',
        description: 'Document it',
        index: 3,
        count: 3,
        completed: [{ id: 'a', name: 'Fix', handoff: 'Fixed Add' }],
      },
    });
    const at = (text: string): number => message.indexOf(text);
    assert.ok(at('# Phase 3 of 3: Docs\n\nDocument it') >= 0, message);
    assert.ok(at('## Fix (a)\n\nFixed Add') > at('# Phases already complete'), message);
    assert.ok(at('# Approved plan for this phase') > at('## Fix (a)'), message);
  });

  it('HANDOFF.md has a section per phase of a plan in phases, none for a plan in one', () => {
    const state = {
      ...toCodingState({ ...initialContext(runInput()), plan: phasedPlan() }, 'SUCCESS', 'now'),
      phases: [
        {
          phaseId: 'a',
          name: 'Fix',
          status: 'complete' as const,
          iterationsRun: 2,
          maxIterations: 2,
          startedAt: 't1',
          endedAt: 't2',
          handoff: 'Fixed Add',
        },
        {
          phaseId: 'c',
          name: 'Docs',
          status: 'error' as const,
          iterationsRun: 1,
          maxIterations: 4,
          startedAt: 't3',
          endedAt: null,
          error: 'model gone',
        },
      ],
    };
    const text = renderHandoff(state, [], 'r');
    assert.ok(
      text.includes(
        '## Phases\n\n### Fix (`a`): complete\n\n- Iterations: 2 of 2\n- Started t1, ended t2\n\nFixed Add\n\n### Docs (`c`): error\n\n- Iterations: 1 of 4\n- After: `a`, `b`\n- Started t3\n- Stopped: model gone\n',
      ),
      text,
    );
    assert.equal(renderHandoff({ ...state, plan: plan() }, [], 'r').includes('## Phases'), false);
  });
});
