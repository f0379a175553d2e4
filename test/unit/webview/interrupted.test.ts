// After a window reload the run that did not finish stays marked "interrupted" in the panel (a
// banner with Resume, not a toast) and "Paused" in the status text, until something follows it again.

import { strict as assert } from 'node:assert';
import { INITIAL_PANEL_STATE, reducePanel } from '../../../webview-ui/src/state/panel-state';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { statusText } from '../../../src/extension/status-text';
import { makeRun } from './fixtures';

describe('an interrupted run', () => {
  it('stays interrupted in the panel for every state message that says so, and only then', () => {
    const run = makeRun({ currentNode: 'CODE' });
    const paused = reducePanel(INITIAL_PANEL_STATE, { type: 'state', run, busy: false, statusText: 'x', interrupted: true });
    assert.equal(paused.interrupted, true);
    const dismissedOther = reducePanel(paused, { type: 'notice', message: 'hello' });
    assert.equal(dismissedOther.interrupted, true, 'a notice does not hide it');
    assert.equal(
      reducePanel(paused, { type: 'state', run, busy: true, statusText: 'x', interrupted: false }).interrupted,
      false,
      'resumed',
    );
    assert.equal(reducePanel(paused, { type: 'state', run, busy: false, statusText: 'x' }).interrupted, false, 'absent means no');
    assert.equal(
      reducePanel(paused, { type: 'state', run: null, busy: false, statusText: 'x', interrupted: true }).interrupted,
      false,
      'no run, nothing to resume',
    );
  });

  it('the flag is checked on arrival', () => {
    assert.equal(parseExtensionMessage({ type: 'state', run: null, busy: false, statusText: 's', interrupted: 'yes' }), null);
    assert.ok(parseExtensionMessage({ type: 'state', run: null, busy: false, statusText: 's', interrupted: true }));
  });

  it('the status text says Paused with where it stopped; a finished run is never paused', () => {
    assert.equal(statusText(makeRun({ currentNode: 'CODE', iterationCount: 2 }), true), 'Ironbees 2/5 · Paused (Coding)');
    assert.equal(statusText(makeRun({ currentNode: 'CODE', iterationCount: 2 })), 'Ironbees 2/5 · Coding');
    assert.equal(statusText(makeRun({ currentNode: 'CANCELLED', iterationCount: 1 }), true), 'Ironbees 1/5 · Cancelled');
  });
});
