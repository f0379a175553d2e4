// A phase's run (--parallel N) compares with the baseline file its planning run names: from a run
// folder not made here that file is not taken (it could excuse failures); its given plan stays, to be
// asked about like any plan.

import { strict as assert } from 'node:assert';
import type { ExecutionPlan, WorkflowContext } from '../../../src/core/model';
import { strictOrders } from '../../../src/core/workflow/run-signature';

const PLAN: ExecutionPlan = { summary: 'One phase', steps: [], affectedFiles: [], complexity: 'LOW' };

describe('strictOrders of a phase run', () => {
  it('drops the given baseline file, names it, and keeps the given plan', () => {
    const workflow: WorkflowContext = {
      workspaceRoot: '/w',
      maxIterations: 3,
      approval: { plan: 'always', diffs: 'always' },
      timeouts: { buildMs: 1, testMs: 1 },
      givenPlan: { spec: 'The spec.', plan: PLAN, baselineFile: '/elsewhere/baseline.json' },
    };
    const lines: string[] = [];
    const strict = strictOrders({ workflow }, '/w', (line) => lines.push(line));
    assert.deepEqual(strict.workflow.givenPlan, { spec: 'The spec.', plan: PLAN });
    assert.deepEqual(lines, [
      'Not taken from the run folder (it was not created by you on this machine): the baseline /elsewhere/baseline.json; failures it lists are not excused.',
    ]);
  });

  it('adds nothing to a run without a given plan', () => {
    const workflow: WorkflowContext = {
      workspaceRoot: '/w',
      maxIterations: 3,
      approval: { plan: 'always', diffs: 'always' },
      timeouts: { buildMs: 1, testMs: 1 },
    };
    assert.equal('givenPlan' in strictOrders({ workflow }, '/w', () => undefined).workflow, false);
  });
});
