// The history list comes from the run store and is only re-sent now and then; the live run changes
// on every step. Its row shows the live state, so the list never contradicts the panel above it.

import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';
import { nodeLabel } from './format';
import { isTerminal } from './timeline';

export interface HistoryBadge {
  label: string;
  tone: 'ok' | 'error' | 'neutral';
}

/**
 * The row's state: its end node, or "Reverted" once a finished run's changes were put back (as the
 * timeline ends in "Reverted"), so the history never calls a reverted run a plain Success.
 */
export function historyBadge(run: RunSummary): HistoryBadge {
  if (run.revertedAt !== undefined && isTerminal(run.currentNode)) return { label: 'Reverted', tone: 'neutral' };
  const tone = run.currentNode === 'SUCCESS' ? 'ok' : run.currentNode === 'FAILED' ? 'error' : 'neutral';
  return { label: nodeLabel(run.currentNode), tone };
}

/** Newest first, with the live run's row brought up to date (or added, before the store lists it). */
export function historyRows(runs: RunSummary[], live: CodingState | null): RunSummary[] {
  const rows = runs.map((run) => (live !== null && run.runId === live.stateId ? withLive(run, live) : run));
  if (live !== null && !rows.some((run) => run.runId === live.stateId)) {
    rows.push({
      runId: live.stateId,
      userRequest: live.userRequest,
      currentNode: live.currentNode,
      iterationCount: live.iterationCount,
      maxIterations: live.maxIterations,
      usage: live.usage,
      createdAt: live.timestamp,
      updatedAt: live.timestamp,
      ...revertedAtOf(live, undefined),
    });
  }
  return rows.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

function withLive(run: RunSummary, live: CodingState): RunSummary {
  return {
    ...run,
    currentNode: live.currentNode,
    iterationCount: live.iterationCount,
    maxIterations: live.maxIterations,
    usage: live.usage,
    updatedAt: live.timestamp > run.updatedAt ? live.timestamp : run.updatedAt,
    ...revertedAtOf(live, run.revertedAt),
  };
}

/** The live state's revert time when it has one (a revert the store's listing has not caught up with). */
function revertedAtOf(live: CodingState, listed: string | undefined): { revertedAt?: string } {
  const revertedAt = typeof live.metadata.revertedAt === 'string' ? live.metadata.revertedAt : listed;
  return revertedAt === undefined ? {} : { revertedAt };
}
