import { strict as assert } from 'node:assert';
import { INITIAL_PANEL_STATE, MAX_BANNERS, reducePanel, type PanelState } from '../../../webview-ui/src/state/panel-state';
import type { FileReview } from '../../../src/shared/protocol';
import { makeRun } from './fixtures';

const REVIEW: FileReview = { filePath: 'a.cs', type: 'MODIFY', status: 'accepted', hunkCount: 1, rejectedHunks: [], added: 1, removed: 1 };

describe('webview panel state', () => {
  it('starts disconnected and connects on the first state message', () => {
    assert.equal(INITIAL_PANEL_STATE.connected, false);
    const next = reducePanel(INITIAL_PANEL_STATE, { type: 'state', run: null, busy: false, statusText: 'Ironbees' });
    assert.equal(next.connected, true);
    assert.equal(next.statusText, 'Ironbees');
    assert.equal(next.run, null);
  });

  it('takes the run, busy flag and status text from a state message', () => {
    const run = makeRun({ currentNode: 'VALIDATE' });
    const next = reducePanel(INITIAL_PANEL_STATE, { type: 'state', run, busy: true, statusText: 'Ironbees 1/5 · Validating' });
    assert.equal(next.run, run);
    assert.equal(next.busy, true);
    assert.equal(next.statusText, 'Ironbees 1/5 · Validating');
  });

  it('keeps a review while the same run is shown and drops it when the run changes', () => {
    let state: PanelState = reducePanel(INITIAL_PANEL_STATE, { type: 'review', runId: 'run-1', files: [REVIEW] });
    state = reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-1' }), busy: false, statusText: '' });
    assert.deepEqual(state.review?.files, [REVIEW]);
    state = reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-2' }), busy: false, statusText: '' });
    assert.equal(state.review, null);
  });

  it('stores history and settings', () => {
    const summary = {
      runId: 'r',
      userRequest: 'x',
      currentNode: 'SUCCESS' as const,
      iterationCount: 1,
      maxIterations: 5,
      usage: makeRun().usage,
      createdAt: 'a',
      updatedAt: 'b',
    };
    let state = reducePanel(INITIAL_PANEL_STATE, { type: 'history', runs: [summary] });
    state = reducePanel(state, { type: 'settings', maxIterations: 7, model: 'claude-x', hasApiKey: false });
    assert.deepEqual(state.history, [summary]);
    assert.deepEqual(state.settings, {
      maxIterations: 7,
      model: 'claude-x',
      hasApiKey: false,
      keyStatus: 'No API key: run "Ironbees: Set API Key"',
    });
    state = reducePanel(state, {
      type: 'settings',
      maxIterations: 7,
      model: 'gpt-x',
      hasApiKey: true,
      keyStatus: 'OpenAI-compatible API key set',
    });
    assert.equal(state.settings?.keyStatus, 'OpenAI-compatible API key set');
  });

  it('keeps only the latest banners and dismisses one by id', () => {
    let state = INITIAL_PANEL_STATE;
    for (let i = 0; i < MAX_BANNERS + 2; i++) state = reducePanel(state, { type: i % 2 ? 'notice' : 'error', message: `m${i}` });
    assert.equal(state.banners.length, MAX_BANNERS);
    assert.equal(state.banners[state.banners.length - 1]?.message, `m${MAX_BANNERS + 1}`);
    const first = state.banners[0];
    assert.ok(first);
    state = reducePanel(state, { type: 'dismissBanner', id: first.id });
    assert.equal(state.banners.length, MAX_BANNERS - 1);
    assert.ok(!state.banners.some((b) => b.id === first.id));
  });

  it('drops the banners of the run shown before when another run is shown', () => {
    let state = reducePanel(INITIAL_PANEL_STATE, { type: 'state', run: makeRun({ stateId: 'run-1' }), busy: false, statusText: '' });
    state = reducePanel(state, { type: 'notice', message: 'Reverted run run-1: src/A.cs' });
    state = reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-1', currentNode: 'SUCCESS' }), busy: false, statusText: '' });
    assert.deepEqual(
      state.banners.map((b) => b.message),
      ['Reverted run run-1: src/A.cs'],
    );
    state = reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-2', currentNode: 'INIT' }), busy: true, statusText: '' });
    assert.deepEqual(state.banners, []);
  });
});
