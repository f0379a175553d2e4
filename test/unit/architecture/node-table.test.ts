// The node table (src/core/nodes.ts) is the one declaration of the workflow's nodes: what each face
// shows and which answers each gate takes are read from it, and the statechart has exactly its nodes.

import { strict as assert } from 'node:assert';
import { TERMINAL_NODES, WORKFLOW_NODES } from '../../../src/core/model';
import { HAND_OFF_PATH, MAIN_PATH, NODE_TABLE, gatesAnswering, helpNodes, nodesOfKind } from '../../../src/core/nodes';
import type { NodeSpec, WorkflowNode } from '../../../src/core/nodes';
import { runMachine } from '../../../src/core/workflow/machine';
import { HELP_NODES } from '../../../src/core/workflow/run-context';
import { GATE_NODES, nodeLabel as statusLabel } from '../../../src/extension/status-text';
import { nodeLabel as stepLabel } from '../../../webview-ui/src/state/format';
import { contractNodes } from '../../support/tables';

/** The nodes this test names, in the order `nodes` has them. */
const KNOWN: readonly string[] = [
  'INIT',
  'PLAN',
  'WAIT_PLAN_APPROVAL',
  'CODE',
  'WAIT_DIFF_APPROVAL',
  'VALIDATE',
  'DECIDE',
  'REVIEW',
  'ESCALATE',
  'WAIT_HUMAN',
  'SUCCESS',
  'FAILED',
  'CANCELLED',
];
const knownOf = (nodes: readonly string[]): string[] => nodes.filter((node) => KNOWN.includes(node));

function place(node: WorkflowNode, which: 'main' | 'handOff'): number | undefined {
  const at: NodeSpec['path'] = NODE_TABLE[node].path;
  return at && which in at ? (at as Record<string, number>)[which] : undefined;
}

describe('node table', () => {
  it('declares every node once, in the public order', () => {
    // The public list (docs/contracts.md): a new state is added there and in the table, in the same place.
    assert.deepEqual(WORKFLOW_NODES, contractNodes());
    assert.deepEqual(contractNodes().slice(0, 3), ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL']);
  });

  // A state added by the recipe joins these lists; the nodes named here keep their kind and order.
  it('derives the gates, the endings, the help nodes and the paths', () => {
    assert.deepEqual(knownOf(nodesOfKind('gate')), ['WAIT_PLAN_APPROVAL', 'WAIT_DIFF_APPROVAL', 'WAIT_HUMAN']);
    assert.deepEqual(GATE_NODES, nodesOfKind('gate'));
    assert.deepEqual(TERMINAL_NODES, ['SUCCESS', 'FAILED', 'CANCELLED']);
    assert.deepEqual(knownOf(helpNodes()), ['PLAN', 'CODE', 'VALIDATE', 'REVIEW']);
    assert.deepEqual(HELP_NODES, helpNodes());
    assert.deepEqual(knownOf(gatesAnswering('APPROVE')), ['WAIT_PLAN_APPROVAL', 'WAIT_DIFF_APPROVAL']);
    assert.deepEqual(gatesAnswering('STOP'), ['WAIT_HUMAN']);
    assert.deepEqual(knownOf(MAIN_PATH), [
      'INIT',
      'PLAN',
      'WAIT_PLAN_APPROVAL',
      'CODE',
      'WAIT_DIFF_APPROVAL',
      'VALIDATE',
      'DECIDE',
      'REVIEW',
    ]);
    assert.deepEqual(knownOf(HAND_OFF_PATH), ['ESCALATE', 'WAIT_HUMAN']);
  });

  it('puts on each path exactly the nodes with a place there, by their place', () => {
    for (const [which, path] of [
      ['main', MAIN_PATH],
      ['handOff', HAND_OFF_PATH],
    ] as const) {
      const placed = WORKFLOW_NODES.filter((node) => place(node, which) !== undefined);
      assert.deepEqual([...path].sort(), [...placed].sort(), which);
      const places = path.map((node) => place(node, which) as number);
      assert.ok(
        places.every((at, i) => i === 0 || at > places[i - 1]),
        `${which}: ${places.join(', ')}`,
      );
    }
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
