import { strict as assert } from 'node:assert';
import { historyBadge, historyRows } from '../../../webview-ui/src/state/history';
import type { RunSummary } from '../../../src/core/trace';
import { makeRun } from './fixtures';

function summary(runId: string, updatedAt: string): RunSummary {
  return {
    runId,
    userRequest: runId,
    currentNode: 'INIT',
    iterationCount: 0,
    maxIterations: 5,
    usage: makeRun().usage,
    createdAt: updatedAt,
    updatedAt,
  };
}

describe('webview historyRows', () => {
  it('sorts newest first', () => {
    const rows = historyRows([summary('old', '2025-01-01T00:00:00Z'), summary('new', '2025-01-02T00:00:00Z')], null);
    assert.deepEqual(
      rows.map((r) => r.runId),
      ['new', 'old'],
    );
  });

  it('brings the live run row up to date', () => {
    const live = makeRun({ stateId: 'old', currentNode: 'SUCCESS', iterationCount: 2, timestamp: '2025-01-03T00:00:00Z' });
    const rows = historyRows([summary('old', '2025-01-01T00:00:00Z'), summary('new', '2025-01-02T00:00:00Z')], live);
    assert.deepEqual(
      rows.map((r) => [r.runId, r.currentNode, r.iterationCount]),
      [
        ['old', 'SUCCESS', 2],
        ['new', 'INIT', 0],
      ],
    );
  });

  it('lists the live run before the store does', () => {
    const rows = historyRows([], makeRun({ stateId: 'fresh', currentNode: 'PLAN' }));
    assert.deepEqual(
      rows.map((r) => [r.runId, r.currentNode]),
      [['fresh', 'PLAN']],
    );
  });

  it('shows a reverted finished run as "Reverted", not its end node', () => {
    const success = { ...summary('done', '2025-01-01T00:00:00Z'), currentNode: 'SUCCESS' as const };
    assert.deepEqual(historyBadge(success), { label: 'Success', tone: 'ok' });
    assert.deepEqual(historyBadge({ ...success, revertedAt: '2025-01-02T00:00:00Z' }), { label: 'Reverted', tone: 'neutral' });
    assert.deepEqual(historyBadge({ ...success, currentNode: 'FAILED', revertedAt: '2025-01-02T00:00:00Z' }), {
      label: 'Reverted',
      tone: 'neutral',
    });
    assert.deepEqual(historyBadge({ ...success, currentNode: 'FAILED' }), { label: 'Failed', tone: 'error' });
  });

  it('keeps an unfinished run resumable-looking even with a revert time', () => {
    const unfinished = { ...summary('open', '2025-01-01T00:00:00Z'), currentNode: 'PLAN' as const, revertedAt: '2025-01-02T00:00:00Z' };
    assert.deepEqual(historyBadge(unfinished), { label: 'Plan', tone: 'neutral' });
  });

  it("takes the live run's revert time before the store lists it", () => {
    const live = makeRun({
      stateId: 'old',
      currentNode: 'SUCCESS',
      timestamp: '2025-01-03T00:00:00Z',
      metadata: { revertedAt: '2025-01-03T00:00:00Z' },
    });
    const [row] = historyRows([summary('old', '2025-01-01T00:00:00Z')], live);
    assert.equal(row.revertedAt, '2025-01-03T00:00:00Z');
    assert.equal(historyBadge(row).label, 'Reverted');
    const [fresh] = historyRows([], makeRun({ stateId: 'fresh', currentNode: 'SUCCESS' }));
    assert.equal(fresh.revertedAt, undefined);
    assert.equal(historyBadge(fresh).label, 'Success');
  });
});
