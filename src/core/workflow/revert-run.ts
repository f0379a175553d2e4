// Reverting a run puts its files back and says so in its state (additive metadata `revertedAt`), so
// the panel, the history and `--json` no longer show a reverted run as a plain "Success". The files
// are the store's business; this only records that it happened.

import type { RevertReport, RunStore } from './store';

export async function revertRun(store: RunStore, runId: string, now: () => Date = () => new Date()): Promise<RevertReport> {
  const report = await store.journal.revert(runId);
  if (report.restored.length === 0 && report.deleted.length === 0) return report;
  const run = await store.load(runId);
  const revertedAt = now().toISOString();
  await store.save({ ...run, codingState: { ...run.codingState, metadata: { ...run.codingState.metadata, revertedAt } } });
  return report;
}
