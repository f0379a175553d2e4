// The node table (src/core/nodes.ts) is the one declaration of the workflow's nodes: what each face
// shows and which answers each gate takes are read from it, and the statechart has exactly its nodes.

import { strict as assert } from 'node:assert';
import { TERMINAL_NODES, WORKFLOW_NODES } from '../../../src/core/model';
import { HAND_OFF_PATH, MAIN_PATH, NODE_TABLE, gatesAnswering, helpNodes, nodesOfKind } from '../../../src/core/nodes';
import { runMachine } from '../../../src/core/workflow/machine';
import { HELP_NODES } from '../../../src/core/workflow/run-context';
import { GATE_NODES, nodeLabel as statusLabel } from '../../../src/extension/status-text';
import { nodeLabel as stepLabel } from '../../../webview-ui/src/state/format';
import { contractNodes } from '../../support/tables';

describe('node table', () => {
  it('declares every node once, in the public order', () => {
    // The public list (docs/contracts.md): a new state is added there and in the table, in the same place.
    assert.deepEqual(WORKFLOW_NODES, contractNodes());
    assert.deepEqual(contractNodes().slice(0, 3), ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL']);
  });

  it('derives the gates, the endings, the help nodes and the paths', () => {
    assert.deepEqual(nodesOfKind('gate'), ['WAIT_PLAN_APPROVAL', 'WAIT_DIFF_APPROVAL', 'WAIT_HUMAN']);
    assert.deepEqual(GATE_NODES, nodesOfKind('gate'));
    assert.deepEqual(TERMINAL_NODES, ['SUCCESS', 'FAILED', 'CANCELLED']);
    assert.deepEqual(helpNodes(), ['PLAN', 'CODE', 'VALIDATE', 'REVIEW']);
    assert.deepEqual(HELP_NODES, ['PLAN', 'CODE', 'VALIDATE', 'REVIEW']);
    assert.deepEqual(gatesAnswering('APPROVE'), ['WAIT_PLAN_APPROVAL', 'WAIT_DIFF_APPROVAL']);
    assert.deepEqual(gatesAnswering('STOP'), ['WAIT_HUMAN']);
    assert.deepEqual(MAIN_PATH, ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'VALIDATE', 'DECIDE', 'REVIEW']);
    assert.deepEqual(HAND_OFF_PATH, ['ESCALATE', 'WAIT_HUMAN']);
  });

  it('gives the status bar and the panel their names for a node', () => {
    assert.equal(statusLabel('VALIDATE'), 'Validating');
    assert.equal(stepLabel('VALIDATE'), 'Validate');
    assert.equal(statusLabel('WAIT_HUMAN'), NODE_TABLE.WAIT_HUMAN.status);
    assert.equal(stepLabel('WAIT_HUMAN'), 'Your call');
  });

  it('matches the statechart: the same nodes, and REQUEST_HELP exactly where the table allows help', () => {
    const states = runMachine.config.states ?? {};
    assert.deepEqual(Object.keys(states), WORKFLOW_NODES);
    const withHelp = Object.entries(states)
      .filter(([, state]) => state && typeof state.on === 'object' && state.on !== null && 'REQUEST_HELP' in state.on)
      .map(([node]) => node);
    assert.deepEqual(withHelp, helpNodes());
  });
});
