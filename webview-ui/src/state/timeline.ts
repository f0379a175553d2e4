// The run's state timeline. The statechart loops (CODE → VALIDATE → DECIDE → CODE), so the panel
// shows the main path once with the current node highlighted, and swaps in the ending the run
// actually took (success, failure, cancellation or the hand-off to a person).

import { TERMINAL_NODES, type WorkflowNode } from '../../../src/core/model';
import { HAND_OFF_PATH, MAIN_PATH, NODE_TABLE } from '../../../src/core/nodes';
import { nodeLabel } from './format';

export type TimelineStatus = 'done' | 'current' | 'todo';

export interface TimelineEntry {
  node: WorkflowNode;
  label: string;
  status: TimelineStatus;
}

// Both paths come from the node table.
const HAND_OFF = HAND_OFF_PATH;

export function buildTimeline(current: WorkflowNode): TimelineEntry[] {
  const path = pathFor(current);
  const index = path.indexOf(current);
  return path.map((node, i) => ({
    node,
    label: nodeLabel(node),
    status: i < index ? 'done' : i === index ? statusAt(current) : 'todo',
  }));
}

export function isTerminal(node: WorkflowNode): boolean {
  return TERMINAL_NODES.includes(node);
}

/** The nodes where the run waits for the person rather than working. */
export function isWaiting(node: WorkflowNode): boolean {
  return NODE_TABLE[node]?.kind === 'gate';
}

function pathFor(current: WorkflowNode): WorkflowNode[] {
  if (HAND_OFF.includes(current)) return [...MAIN_PATH, ...HAND_OFF];
  if (isTerminal(current)) return [...MAIN_PATH, current];
  return [...MAIN_PATH, 'SUCCESS'];
}

/** A successful run has nothing left to do, so its ending reads "done"; any other node is where it stands. */
function statusAt(current: WorkflowNode): TimelineStatus {
  return current === 'SUCCESS' ? 'done' : 'current';
}
