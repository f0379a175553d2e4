// The CLI's per-phase progress: a line when a phase starts, completes or stops; none for a plan in one phase.

import { strict as assert } from 'node:assert';
import pc from 'picocolors';
import { describeTransition, renderEscalation } from '../../../src/cli/render/state';
import { describePhaseChanges, renderPlanPhases } from '../../../src/cli/render/phases';
import type { CodingState, PhaseState, PlanPhase } from '../../../src/core/model';
import { PLAN, makeState } from './fixtures';

const plain = pc.createColors(false);
const planned = (id: string, dependencies: string[], maxIterations?: number): PlanPhase => ({
  id,
  name: `Phase ${id}`,
  description: '',
  dependencies,
  ...(maxIterations ? { maxIterations } : {}),
  steps: [{ number: 1, description: 'd', actionType: 'MODIFY', filePath: `${id}.cs`, rationale: '' }],
  affectedFiles: [`${id}.cs`],
});
const phase = (phaseId: string, status: PhaseState['status'], startedAt: string | null, extra: Partial<PhaseState> = {}): PhaseState => ({
  phaseId,
  name: `Phase ${phaseId}`,
  status,
  iterationsRun: status === 'pending' ? 0 : 1,
  maxIterations: 3,
  startedAt,
  endedAt: null,
  ...extra,
});
const PHASED = { ...PLAN, phases: [planned('a', [], 2), planned('b', ['a'])] };
const at = (currentNode: CodingState['currentNode'], phases: PhaseState[]): CodingState => makeState({ currentNode, plan: PHASED, phases });

describe('CLI per-phase progress', () => {
  it('says a phase completed and the next started, in that order', () => {
    const before = at('DECIDE', [phase('a', 'running', 't1', { iterationsRun: 2 }), phase('b', 'pending', null)]);
    const after = at('CODE', [phase('a', 'complete', 't1', { iterationsRun: 2 }), phase('b', 'running', 't2')]);
    assert.deepEqual(describePhaseChanges(before, after, plain), [
      'phase Phase a: complete after 2 iteration(s)',
      'phase 2/2 Phase b: started (at most 3 iteration(s))',
    ]);
    assert.deepEqual(describePhaseChanges(after, after, plain), []);
    assert.ok(describeTransition(before, after, plain).includes('phase 2/2 Phase b: started (at most 3 iteration(s))'));
  });

  it('phases shown live within one step (--parallel N) print their changes only, not the step line again', () => {
    const both = at('CODE', [phase('a', 'running', 't1'), phase('b', 'running', 't1')]);
    const one = at('CODE', [phase('a', 'complete', 't1'), phase('b', 'running', 't1')]);
    assert.deepEqual(describeTransition(both, one, plain), ['phase Phase a: complete after 1 iteration(s)']);
    assert.deepEqual(describeTransition(one, one, plain), []);
  });

  it('on a resumed run, says where the running phase is; a stopped phase says why', () => {
    const resumed = at('CODE', [phase('a', 'complete', 't1'), phase('b', 'running', 't2', { iterationsRun: 2 })]);
    assert.deepEqual(describePhaseChanges(null, resumed, plain), [
      'phase Phase a: complete after 1 iteration(s)',
      'phase 2/2 Phase b: running, iteration 2 of 3',
    ]);
    const failed = at('FAILED', [phase('a', 'complete', 't1'), phase('b', 'error', 't2', { error: 'model gone' })]);
    assert.deepEqual(describePhaseChanges(resumed, failed, plain), ['phase Phase b: stopped: model gone']);
  });

  it('says nothing of phases for a plan in one phase, and lists a phased plan’s phases with the plan', () => {
    const one = makeState({ currentNode: 'CODE', plan: PLAN, phases: [phase('main', 'running', 't1')] });
    assert.deepEqual(describePhaseChanges(null, one, plain), []);
    assert.deepEqual(renderPlanPhases(PHASED, plain), [
      '',
      '  Phases (run one at a time, each after the phases it depends on):',
      '    a Phase a, at most 2 iteration(s): 1 step(s) on a.cs',
      '    b Phase b after a: 1 step(s) on b.cs',
    ]);
  });

  it('an escalation in a phase counts that phase’s iterations', () => {
    const waiting = makeState({
      currentNode: 'WAIT_HUMAN',
      iterationCount: 5,
      maxIterations: 5,
      plan: PHASED,
      phases: [phase('a', 'complete', 't1'), phase('b', 'running', 't2', { iterationsRun: 3, maxIterations: 3 })],
    });
    assert.equal(
      renderEscalation(waiting, plain).split('\n')[0],
      'Escalation: phase Phase b still fails validation after 3 of 3 iterations.',
    );
    assert.equal(
      renderEscalation({ ...waiting, plan: PLAN }, plain).split('\n')[0],
      'Escalation: validation still fails after 5 of 5 iterations.',
    );
  });

  it('an escalation by a phase run at once names the phase that stopped the others and why', () => {
    const blocked = makeState({
      currentNode: 'WAIT_HUMAN',
      plan: PHASED,
      phases: [
        phase('a', 'error', 't1', { error: 'Stopped with the run.' }),
        phase('b', 'error', 't1', { error: 'Phase "b" (Phase b) ended ESCALATE in its worktree; the other phases were stopped.\nMore.' }),
      ],
    });
    assert.equal(
      renderEscalation(blocked, plain).split('\n')[0],
      'Escalation: phase Phase b stopped the run: Phase "b" (Phase b) ended ESCALATE in its worktree; the other phases were stopped.',
    );
  });
});
