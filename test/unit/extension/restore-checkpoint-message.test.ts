// The panel's "Restore here" message is input: the schema takes a checkpoint id or a reference the
// core resolves, nothing else; the checkpoints the panel is sent carry only the fields it shows.

import assert from 'node:assert/strict';
import type { CheckpointSummary } from '../../../src/core/runtime/faces';
import { panelCheckpoint, staleRunProblem } from '../../../src/extension/panel-bridge';
import { webviewMessageSchema } from '../../../src/shared/protocol';

const RUN = '20261124-060000-abcdef';

describe('restoreCheckpoint panel message', () => {
  it('accepts a checkpoint id, plan, iteration:N and last-green', () => {
    for (const checkpoint of ['c1', 'c12', 'plan', 'last-green', 'iteration:2']) {
      const parsed = webviewMessageSchema.safeParse({ type: 'restoreCheckpoint', runId: RUN, checkpoint });
      assert.deepEqual(parsed.success && parsed.data, { type: 'restoreCheckpoint', runId: RUN, checkpoint }, checkpoint);
    }
  });

  it('refuses anything else as a checkpoint, and a missing run', () => {
    for (const checkpoint of ['', 'c', 'c1; rm', '../c1', 'iteration:', 'iteration:x', 'C1', 'last green', 42, null]) {
      assert.equal(
        webviewMessageSchema.safeParse({ type: 'restoreCheckpoint', runId: RUN, checkpoint }).success,
        false,
        String(checkpoint),
      );
    }
    assert.equal(webviewMessageSchema.safeParse({ type: 'restoreCheckpoint', checkpoint: 'c1' }).success, false);
  });

  it('names its run on purpose: not refused as stale when another run is shown', () => {
    assert.equal(staleRunProblem({ type: 'restoreCheckpoint', runId: RUN, checkpoint: 'c1' }, 'another-run'), null);
  });

  it('sends the panel a copy of the fields it shows, nothing more', () => {
    const summary = {
      id: 'c2',
      label: 'iteration 1',
      kind: 'iteration',
      node: 'DECIDE',
      iteration: 1,
      at: '2026-11-27T10:00:00.000Z',
      files: ['src/A.cs'],
      tests: { total: 7, passed: 6, failed: 1, extra: 1 },
      green: false,
    } as unknown as CheckpointSummary;
    assert.deepEqual(panelCheckpoint(summary), {
      id: 'c2',
      label: 'iteration 1',
      kind: 'iteration',
      node: 'DECIDE',
      iteration: 1,
      tests: { total: 7, passed: 6, failed: 1 },
      green: false,
    });
  });
});
