// `ironbees runs`: a reverted finished run reads REVERTED, not the ending it had before.

import { strict as assert } from 'node:assert';
import { renderRunsTable } from '../../../src/cli/commands/runs';
import { EMPTY_USAGE } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';

function summary(runId: string, overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    runId,
    userRequest: 'Fix it',
    currentNode: 'SUCCESS',
    iterationCount: 1,
    maxIterations: 5,
    usage: EMPTY_USAGE,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:05:00.000Z',
    ...overrides,
  };
}

/** The STATE column of each row. */
function states(table: string): string[] {
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/)[1]);
}

describe('ironbees runs table', () => {
  it('shows REVERTED for a finished run whose changes were put back', () => {
    const table = renderRunsTable([
      summary('kept'),
      summary('undone', { revertedAt: '2026-11-25T11:00:00.000Z' }),
      summary('open', { currentNode: 'PLAN', revertedAt: '2026-11-25T11:00:00.000Z' }),
    ]);
    assert.deepEqual(states(table), ['SUCCESS', 'REVERTED', 'PLAN']);
  });

  it('shows each run’s phases complete of its plan’s when some run has a plan in phases, and no column otherwise', () => {
    const one = { total: 1, pending: 0, running: 0, complete: 1, error: 0 };
    assert.doesNotMatch(renderRunsTable([summary('plain', { phases: one })]), /PHASES/);
    const table = renderRunsTable([
      summary('plain', { phases: one }),
      summary('phased', { currentNode: 'CODE', phases: { total: 3, pending: 1, running: 1, complete: 1, error: 0 } }),
      summary('failed', { currentNode: 'FAILED', phases: { total: 3, pending: 1, running: 0, complete: 1, error: 1 } }),
      summary('old'),
    ]);
    const column = (line: string): string => line.slice(table.split('\n')[0]!.indexOf('PHASES')).split(/\s{2,}/)[0]!;
    assert.deepEqual(table.split('\n').map(column), ['PHASES', '1/1', '1/3', '1/3 (1 error)', '-']);
  });
});
