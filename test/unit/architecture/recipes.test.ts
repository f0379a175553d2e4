// The recipes' lists agree (CONTRIBUTING.md): the public agent table (docs/contracts.md), the bundled
// agents' folders and the registered units. A new agent is added to each in its recipe; this fails
// until it is in all of them.

import { strict as assert } from 'node:assert';
import { builtinAgentRegistry } from '../../../src/core/agents/builtin';
import { bundledAgentNames, contractAgents } from '../../support/tables';

describe('the recipes agree', () => {
  it('the public agent table lists exactly the bundled agents', () => {
    assert.deepEqual([...contractAgents()].sort(), bundledAgentNames());
    assert.ok(bundledAgentNames().includes('planner'), `the table is read: ${contractAgents().join(', ')}`);
  });

  it('every registered agent unit is bundled; the validator alone is bundled without a unit (it calls no model)', () => {
    const units = builtinAgentRegistry().names();
    assert.deepEqual(
      units.filter((name) => !bundledAgentNames().includes(name)),
      [],
    );
    assert.deepEqual(
      bundledAgentNames().filter((name) => !units.includes(name)),
      ['validator'],
    );
  });
});
