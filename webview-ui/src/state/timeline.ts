// The run's state timeline. The statechart loops (CODE → VALIDATE → DECIDE → CODE), so the panel
// shows the main path once with the current node highlighted, and swaps in the ending the run
// actually took (success, failure, cancellation or the hand-off to a person).

import { TERMINAL_NODES, type CodingState, type WorkflowNode } from '../../../src/core/model';
import { HAND_OFF_PATH, MAIN_PATH, NODE_TABLE } from '../../../src/core/nodes';
import { nodeLabel } from './format';

/**
 * `failed`: the step the run failed in, the FAILED ending, or a baseline whose build failed.
 * `stopped`: the step a cancelled run was in, and the CANCELLED ending. `reverted`: the ending of a
 * run whose changes were reverted afterwards. `skipped`: an approval gate the run went past without
 * asking, because the approval settings said so.
 */
export type TimelineStatus = 'done' | 'current' | 'todo' | 'failed' | 'stopped' | 'reverted' | 'skipped';

export interface TimelineEntry {
  node: WorkflowNode;
  label: string;
  status: TimelineStatus;
  /** Why the step reads as it does, when that is not obvious (shown as a tooltip). */
  note?: string;
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

/**
 * The timeline of a run as it really went: a run that failed or was cancelled ticks only the steps
 * it reached and marks the one it stopped in; a reverted run ends in "Reverted", not "Success"; a
 * baseline whose build failed is not ticked green.
 */
export function runTimeline(run: CodingState): TimelineEntry[] {
  const current = run.currentNode;
  let entries = buildTimeline(current);
  if (current === 'FAILED' || current === 'CANCELLED') entries = endedEarly(run, entries, current);
  if (typeof run.metadata.revertedAt === 'string' && isTerminal(current)) {
    entries = entries.map((e) =>
      e.node === current
        ? {
            ...e,
            label: 'Reverted',
            status: 'reverted',
            note: `${nodeLabel(current)}, then reverted: every file the run changed has its original content back`,
          }
        : e,
    );
  }
  entries = withSkippedGates(run, entries);
  if (run.baseline && !run.baseline.build.success) {
    const count = run.baseline.build.errors.length;
    entries = entries.map((e) =>
      e.node === 'INIT' && e.status === 'done'
        ? { ...e, status: 'failed', note: `The build failed before any edit (${count} error${count === 1 ? '' : 's'})` }
        : e,
    );
  }
  return entries;
}

/**
 * A gate the run went past is ticked only if the run stopped there for the person: one its approval
 * settings skipped reads "skipped". Runs persisted before the state kept `gatesReached` are left as they were.
 */
function withSkippedGates(run: CodingState, entries: TimelineEntry[]): TimelineEntry[] {
  const reached = run.metadata.gatesReached;
  if (!Array.isArray(reached)) return entries;
  return entries.map((e) =>
    isWaiting(e.node) && e.status === 'done' && !reached.includes(e.node)
      ? { ...e, status: 'skipped', note: 'Skipped: the approval settings let the run go on without asking you' }
      : e.node === 'REVIEW' && e.status === 'done' && run.review === undefined
        ? { ...e, status: 'skipped', note: 'Skipped: code review is off for this run' }
        : e,
  );
}

/** The step a run that failed or was cancelled stopped in: said by the run, else the first step it left no trace of. */
export function stoppedIn(run: CodingState): WorkflowNode | null {
  const said = run.metadata.endedDuring;
  if (typeof said === 'string' && said in NODE_TABLE) return said as WorkflowNode;
  const traces: [WorkflowNode, boolean][] = [
    ['INIT', run.baseline !== null],
    ['PLAN', run.plan !== null],
    ['CODE', run.codeDiffs.length > 0 || typeof run.metadata.coderSummary === 'string'],
    ['VALIDATE', run.buildResult !== null],
  ];
  return traces.find(([, reached]) => !reached)?.[0] ?? null;
}

/** What the panel says under the timeline about how the run ended, when it did not succeed: the real reason, from the state. */
export function endingNote(run: CodingState): string | null {
  const stop = stoppedIn(run);
  const during = stop === null ? '' : ` during ${nodeLabel(stop)}`;
  if (run.currentNode === 'FAILED') {
    const error = typeof run.metadata.error === 'string' && run.metadata.error.trim() ? run.metadata.error : 'no reason was recorded';
    return `Failed${during}: ${error}`;
  }
  if (run.currentNode === 'CANCELLED') return `Cancelled${during}.`;
  return null;
}

/** Said while the coder proposes again because the person changed files under review (their version is kept). */
export function conflictNote(run: CodingState): string | null {
  const files = run.metadata.editConflict;
  if (!Array.isArray(files) || files.length === 0 || isTerminal(run.currentNode)) return null;
  return `${files.join(', ')} changed while under review: nothing was written over your version; the agent proposes again on top of it.`;
}

function endedEarly(run: CodingState, entries: TimelineEntry[], ending: 'FAILED' | 'CANCELLED'): TimelineEntry[] {
  const stop = stoppedIn(run);
  const mark: TimelineStatus = ending === 'FAILED' ? 'failed' : 'stopped';
  // A run stopped at the hand-off went the whole main path and the hand-off up to where it stopped.
  const path = stop !== null && HAND_OFF.includes(stop) ? [...MAIN_PATH, ...HAND_OFF, ending] : [...MAIN_PATH, ending];
  const at = stop === null ? path.length - 1 : path.indexOf(stop);
  return path.map((node, i) => ({
    node,
    label: nodeLabel(node),
    status: node === ending ? mark : i < at ? 'done' : i === at ? mark : 'todo',
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
