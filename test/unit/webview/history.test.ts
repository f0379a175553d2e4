import { strict as assert } from 'node:assert';
import { historyRows } from '../../../webview-ui/src/state/history';
import type { RunSummary } from '../../../src/core/trace';
import { makeRun } from './fixtures';

function summary(runId: string, updatedAt: string): RunSummary {
  return { runId, userRequest: runId, currentNode: 'INIT', iterationCount: 0, maxIterations: 5, usage: makeRun().usage, createdAt: updatedAt, updatedAt };
}

describe('webview historyRows', () => {
  it('sorts newest first', () => {
    const rows = historyRows([summary('old', '2025-01-01T00:00:00Z'), summary('new', '2025-01-02T00:00:00Z')], null);
    assert.deepEqual(rows.map((r) => r.runId), ['new', 'old']);
  });

  it('brings the live run row up to date', () => {
    const live = makeRun({ stateId: 'old', currentNode: 'SUCCESS', iterationCount: 2, timestamp: '2025-01-03T00:00:00Z' });
    const rows = historyRows([summary('old', '2025-01-01T00:00:00Z'), summary('new', '2025-01-02T00:00:00Z')], live);
    assert.deepEqual(rows.map((r) => [r.runId, r.currentNode, r.iterationCount]), [['old', 'SUCCESS', 2], ['new', 'INIT', 0]]);
  });

  it('lists the live run before the store does', () => {
    const rows = historyRows([], makeRun({ stateId: 'fresh', currentNode: 'PLAN' }));
    assert.deepEqual(rows.map((r) => [r.runId, r.currentNode]), [['fresh', 'PLAN']]);
  });
});
