// With --parallel N the first CODE of a plan of several phases is handed the whole plan (its phases run
// at once, parallel-phases.ts); a later CODE, one phase, or N = 1 is the ordinary coder's. A phase run in
// a worktree of its own shows that worktree while it runs, and not once it is complete.

import { strict as assert } from 'node:assert';
import type { ExecutionPlan, PlanPhase, WorkflowContext } from '../../../src/core/model';
import { initialContext } from '../../../src/core/workflow/run-context';
import type { RunContext } from '../../../src/core/workflow/run-context';
import { beginPhases, completePhase, phaseWork } from '../../../src/core/workflow/phases';
import { runInput } from './samples';

function phase(id: string, dependencies: string[] = []): PlanPhase {
  return { id, name: `Phase ${id}`, description: id, dependencies, steps: [], affectedFiles: [] };
}

function phased(...phases: PlanPhase[]): ExecutionPlan {
  return { summary: 'Phases', steps: [], affectedFiles: [], complexity: 'LOW', phases };
}

function started(plan: ExecutionPlan, overrides: Partial<WorkflowContext>): RunContext {
  const context: RunContext = { ...initialContext(runInput(overrides)), plan, iterationCount: 1 };
  return { ...context, ...beginPhases(context, 1, '2026-01-01T00:00:00.000Z') };
}

describe('phases with --parallel N', () => {
  it('hands the first CODE the whole plan and the limit', () => {
    const plan = phased(phase('a'), phase('b'), phase('c', ['a', 'b']));
    assert.deepEqual(phaseWork(started(plan, { parallel: 2 })).parallel, { plan, limit: 2 });
  });

  it('leaves it to the ordinary coder with N = 1, one phase, or in a later iteration', () => {
    assert.equal(phaseWork(started(phased(phase('a'), phase('b')), {})).parallel, undefined);
    assert.equal(phaseWork(started(phased(phase('a')), { parallel: 3 })).parallel, undefined);
    const failed = started(phased(phase('a'), phase('b')), { parallel: 3 });
    assert.equal(phaseWork({ ...failed, iterationCount: 2 }).parallel, undefined);
  });

  it("shows a given plan's phase in its worktree while it runs, and not once complete", () => {
    const given = phased(phase('a'));
    const context = started(given, { workspaceRoot: '/repo/.ironbees/worktrees/r-phase-a', givenPlan: { spec: 's', plan: given } });
    assert.equal(context.phases?.[0]?.worktree, '/repo/.ironbees/worktrees/r-phase-a');
    const done = completePhase(context, '2026-01-01T00:01:00.000Z').phases?.[0];
    assert.equal(done?.status, 'complete');
    assert.equal('worktree' in (done ?? {}), false);
    assert.equal('worktree' in (started(given, {}).phases?.[0] ?? {}), false);
  });
});
