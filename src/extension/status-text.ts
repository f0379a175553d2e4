// What the status bar says about a run, e.g. `Ironbees 2/5 · Validating`. Pure, so the panel and
// the status bar say the same thing and a plain-Node test can check it.

import type { CodingState, WorkflowNode } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import { nodeSpec, nodesOfKind } from '../core/nodes';

/** The gates where the run waits for the person: nothing is working then. */
export const GATE_NODES: readonly WorkflowNode[] = nodesOfKind('gate');

/** The node's status-bar name, from the node table. */
export function nodeLabel(node: WorkflowNode): string {
  return nodeSpec(node).status;
}

/** True while a step is working: neither waiting for the person nor finished. */
export function isWorking(state: CodingState | null): boolean {
  if (!state) return false;
  return !GATE_NODES.includes(state.currentNode) && !TERMINAL_NODES.includes(state.currentNode);
}

/** A finished run whose changes were put back: every status surface says Reverted, not how it ended. */
export function isReverted(state: CodingState): boolean {
  return typeof state.metadata.revertedAt === 'string' && TERMINAL_NODES.includes(state.currentNode);
}

/**
 * `Ironbees 2/5 · Validating`; the iteration shows once the coder has started. A run shown but not
 * followed (after a window reload) is `paused`: `Ironbees 2/5 · Paused (Coding)` until it is resumed.
 */
export function statusText(state: CodingState | null, paused = false): string {
  if (!state) return 'Ironbees';
  const iteration = state.iterationCount > 0 ? ` ${state.iterationCount}/${state.maxIterations}` : '';
  if (isReverted(state)) return `Ironbees${iteration} · Reverted`;
  const where = nodeLabel(state.currentNode);
  const phase = runningPhaseOf(state);
  return `Ironbees${iteration}${phase ? ` · ${phase}` : ''} · ${paused && !TERMINAL_NODES.includes(state.currentNode) ? `Paused (${where})` : where}`;
}

/** In a plan of phases, the running phase's name (`phase 2/3 Fix Divide`); null otherwise. */
export function runningPhaseOf(state: CodingState): string | null {
  const phases = state.phases ?? [];
  if (!state.plan?.phases?.length || TERMINAL_NODES.includes(state.currentNode)) return null;
  const running = phases.find((phase) => phase.status === 'running');
  if (!running) return null;
  const done = phases.filter((phase) => phase.status === 'complete').length;
  return `phase ${done + 1}/${phases.length} ${running.name}`;
}

/** The codicon in front of the text: a spinner while working, the outcome when done. */
export function statusIcon(state: CodingState | null): string {
  if (!state) return '$(hubot)';
  if (isWorking(state)) return '$(sync~spin)';
  if (isReverted(state)) return '$(discard)';
  switch (state.currentNode) {
    case 'SUCCESS':
      return '$(check)';
    case 'FAILED':
      return '$(error)';
    case 'CANCELLED':
      return '$(circle-slash)';
    default:
      return '$(bell)';
  }
}
