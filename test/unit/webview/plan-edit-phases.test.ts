// Editing a plan in phases in the panel: a step's edit goes to its phase; removing a phase's last
// step drops the phase, and no phase waits for it any more. The result passes the server's check.

import { strict as assert } from 'node:assert';
import { finalizePlan, removeStep, updateStep } from '../../../webview-ui/src/state/plan-edit';
import { checkedEditedPlan } from '../../../src/core/workflow/run-checks';
import { executionPlanSchema } from '../../../src/core/agents/planner/terminal-tool';

const step = (filePath: string) => ({ number: 1, description: `edit ${filePath}`, actionType: 'MODIFY', filePath, rationale: '' });
const PHASED = executionPlanSchema.parse({
  summary: 's',
  complexity: 'MEDIUM',
  phases: [
    { id: 'fix', name: 'Fix', steps: [step('A.cs'), step('B.cs')] },
    { id: 'docs', name: 'Docs', steps: [step('README.md')] },
    { id: 'cover', name: 'Cover', dependencies: ['fix', 'docs'], steps: [step('T.cs')] },
  ],
});

describe('webview: editing a plan in phases', () => {
  it('an edited step goes back to its phase, and the server keeps the edit', () => {
    const edited = finalizePlan(updateStep(PHASED, 2, { description: 'Say how to divide' }));
    assert.equal(edited.phases?.[1]?.steps[0]?.description, 'Say how to divide');
    assert.equal(checkedEditedPlan('run-1', edited).steps[2]?.description, 'Say how to divide');
  });

  it('removing a phase’s last step drops the phase and the dependency on it', () => {
    const edited = finalizePlan(removeStep(PHASED, 2));
    assert.deepEqual(
      edited.phases?.map((p) => [p.id, p.dependencies, p.steps.map((s) => [s.number, s.filePath])]),
      [
        [
          'fix',
          [],
          [
            [1, 'A.cs'],
            [2, 'B.cs'],
          ],
        ],
        ['cover', ['fix'], [[1, 'T.cs']]],
      ],
    );
    const checked = checkedEditedPlan('run-1', edited);
    assert.deepEqual(
      checked.phases?.map((p) => p.id),
      ['fix', 'cover'],
    );
    assert.deepEqual(
      checked.steps.map((s) => s.filePath),
      ['A.cs', 'B.cs', 'T.cs'],
    );
  });

  it('removing one step of a phase keeps the phase', () => {
    const edited = removeStep(PHASED, 0);
    assert.deepEqual(
      edited.phases?.[0]?.steps.map((s) => [s.number, s.filePath]),
      [[1, 'B.cs']],
    );
    assert.deepEqual(edited.phases?.[0]?.affectedFiles, ['B.cs']);
  });
});
