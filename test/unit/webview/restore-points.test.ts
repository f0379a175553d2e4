// Which steps and attempts of the panel offer "Restore here", when "Back to last green" shows, and
// the `checkpoints` message as the panel parses and keeps it.

import { strict as assert } from 'node:assert';
import type { PanelCheckpoint } from '../../../src/shared/protocol';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { INITIAL_PANEL_STATE, reducePanel } from '../../../webview-ui/src/state/panel-state';
import { NO_RESTORE_POINTS, restorePoints, rewoundNote } from '../../../webview-ui/src/state/restore-points';
import { makeRun } from './fixtures';

function checkpoint(id: string, kind: PanelCheckpoint['kind'], iteration: number, green = false): PanelCheckpoint {
  return {
    id,
    label: kind === 'plan' ? 'plan approved' : `${kind} ${iteration}`,
    kind,
    node: kind === 'plan' ? 'CODE' : 'DECIDE',
    iteration,
    tests: { total: 7, passed: green ? 7 : 6, failed: green ? 0 : 1 },
    green,
  };
}

const C1 = checkpoint('c1', 'plan', 0);
const C2 = checkpoint('c2', 'iteration', 1);
const C3 = checkpoint('c3', 'escalation', 1);
const C4 = checkpoint('c4', 'guidance', 1);
const C5 = checkpoint('c5', 'iteration', 2, true);
const C6 = checkpoint('c6', 'iteration', 2);
const ALL = { runId: 'r1', list: [C1, C2, C3, C4, C5, C6] };

describe('panel restore points', () => {
  it('the plan step goes back to the plan, Validate to the newest validation, each attempt to its own (latest) checkpoint, last green to the newest green', () => {
    assert.deepEqual(restorePoints('r1', ALL, false), {
      steps: { PLAN: C1, VALIDATE: C6 },
      attempts: { 1: C2, 2: C6 },
      lastGreen: C5,
    });
  });

  it('no "Back to last green" without a green checkpoint; no attempt without an iteration checkpoint', () => {
    assert.deepEqual(restorePoints('r1', { runId: 'r1', list: [C1, C3] }, false), {
      steps: { PLAN: C1 },
      attempts: {},
      lastGreen: null,
    });
  });

  it('nothing while the run works, for another run\u2019s list, or with no checkpoint', () => {
    assert.equal(restorePoints('r1', ALL, true), NO_RESTORE_POINTS);
    assert.equal(restorePoints('r2', ALL, false), NO_RESTORE_POINTS);
    assert.equal(restorePoints('r1', null, false), NO_RESTORE_POINTS);
    assert.equal(restorePoints('r1', { runId: 'r1', list: [] }, false), NO_RESTORE_POINTS);
  });

  it('parses a checkpoints message and refuses a malformed one', () => {
    const message = { type: 'checkpoints', runId: 'r1', checkpoints: [C1, C5] };
    assert.deepEqual(parseExtensionMessage(message), message);
    for (const bad of [
      { type: 'checkpoints', runId: 'r1' },
      { type: 'checkpoints', runId: 1, checkpoints: [] },
      { type: 'checkpoints', runId: 'r1', checkpoints: [{ ...C1, green: 'yes' }] },
      { type: 'checkpoints', runId: 'r1', checkpoints: [{ ...C1, tests: null }] },
      { type: 'checkpoints', runId: 'r1', checkpoints: [{ id: 'c1' }] },
    ]) {
      assert.equal(parseExtensionMessage(bad), null, JSON.stringify(bad));
    }
  });

  it('the panel keeps the list for its run and drops it when another run is shown', () => {
    const run = makeRun();
    const shown = reducePanel(INITIAL_PANEL_STATE, { type: 'state', run, busy: false, statusText: '' });
    const withList = reducePanel(shown, { type: 'checkpoints', runId: run.stateId, checkpoints: [C1, C2] });
    assert.deepEqual(withList.checkpoints, { runId: run.stateId, list: [C1, C2] });
    const sameRun = reducePanel(withList, { type: 'state', run: { ...run, currentNode: 'WAIT_HUMAN' }, busy: false, statusText: '' });
    assert.deepEqual(sameRun.checkpoints, { runId: run.stateId, list: [C1, C2] });
    const other = reducePanel(withList, { type: 'state', run: { ...run, stateId: 'other' }, busy: false, statusText: '' });
    assert.equal(other.checkpoints, null);
  });

  it('a run waiting because it was rewound says so, not its old escalation reason; a later escalation is its own', () => {
    const rewinds = [
      { at: '2026-11-27T11:43:25.000Z', checkpoint: 'c1', label: 'plan approved', fromNode: 'SUCCESS', fromIteration: 1, setAside: [] },
    ];
    const rewound = makeRun({ currentNode: 'WAIT_HUMAN', timestamp: '2026-11-27T11:43:25.000Z', metadata: { rewinds } });
    assert.equal(
      rewoundNote(rewound),
      "Rewound to “plan approved”: the files have that checkpoint's bytes, and what was tried after it stays in the run's history. Say what to try next.",
    );
    assert.equal(rewoundNote({ ...rewound, timestamp: '2026-11-27T11:50:00.000Z' }), null, 'escalated again since');
    assert.equal(rewoundNote(makeRun({ currentNode: 'WAIT_HUMAN' })), null);
  });
});
