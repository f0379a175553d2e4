import { strict as assert } from 'node:assert';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { makeRun } from './fixtures';

describe('webview parseExtensionMessage', () => {
  it('accepts every well-formed message kind', () => {
    const ok: unknown[] = [
      { type: 'state', run: null, busy: false, statusText: '' },
      { type: 'state', run: makeRun(), busy: true, statusText: 'Ironbees 1/5 · Planning' },
      {
        type: 'review',
        runId: 'r',
        files: [{ filePath: 'a.cs', type: 'MODIFY', status: 'pending', hunkCount: 1, rejectedHunks: [], added: 0, removed: 0 }],
      },
      { type: 'history', runs: [] },
      { type: 'settings', maxIterations: 5, model: 'm', hasApiKey: true },
      { type: 'error', message: 'boom' },
      { type: 'notice', message: 'hi' },
    ];
    for (const message of ok) assert.deepEqual(parseExtensionMessage(message), message);
  });

  it('rejects anything else', () => {
    const bad: unknown[] = [
      null,
      'state',
      [],
      {},
      { type: 'nope' },
      { type: 'toString' },
      { type: 'state', run: null, busy: 'yes', statusText: '' },
      { type: 'state', run: { stateId: 'x' }, busy: false, statusText: '' },
      { type: 'review', runId: 'r', files: [{}] },
      { type: 'history', runs: [{}] },
      { type: 'settings', maxIterations: '5', model: 'm', hasApiKey: true },
      { type: 'error' },
    ];
    for (const message of bad) assert.equal(parseExtensionMessage(message), null, JSON.stringify(message));
  });
});
