// The history list comes from the run store and is only re-sent now and then; the live run changes
// on every step. Its row shows the live state, so the list never contradicts the panel above it.

import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';

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
  };
}
