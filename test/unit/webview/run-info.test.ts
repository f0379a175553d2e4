// The panel's "model and instructions" section: the provider/model line and the instructions files
// the run's agents were given, with a note on each one cut to fit the cap (issue 13).

import { strict as assert } from 'node:assert';
import { instructionsRows, modelLine } from '../../../webview-ui/src/state/run-info';
import { INITIAL_PANEL_STATE, reducePanel } from '../../../webview-ui/src/state/panel-state';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { makeRun } from './fixtures';

describe('webview run info: provider, model and instructions files', () => {
  it('lists each instructions file read, in order, with its size and a note when it was cut', () => {
    const run = makeRun({
      metadata: {
        instructionsRead: [
          { path: 'AGENTS.md', chars: 1234, truncated: false },
          { path: 'src/Billing/AGENTS.md', chars: 16_000, truncated: true },
          { path: 'broken' },
        ],
      },
    });
    assert.deepEqual(instructionsRows(run), [
      { path: 'AGENTS.md', truncated: false, note: '1.2k chars' },
      { path: 'src/Billing/AGENTS.md', truncated: true, note: 'cut to 16k chars (over the size cap)' },
    ]);
  });

  it('lists nothing for a run that read none, an older run, or no run', () => {
    assert.deepEqual(instructionsRows(makeRun()), []);
    assert.deepEqual(instructionsRows(makeRun({ metadata: { instructionsRead: 'AGENTS.md' } })), []);
    assert.deepEqual(instructionsRows(null), []);
  });

  it('says the provider and model, with the fallback when there is one', () => {
    assert.equal(
      modelLine({ runId: 'r', text: 'OpenAI-compatible · gpt-4.1', fallback: 'Anthropic · claude-sonnet-4-5' }),
      'OpenAI-compatible · gpt-4.1 (fallback: Anthropic · claude-sonnet-4-5)',
    );
    assert.equal(
      modelLine({ runId: null, text: 'Anthropic · each agent\u2019s model', fallback: null }),
      'Anthropic · each agent\u2019s model',
    );
    assert.equal(modelLine(null), null);
  });

  it('keeps the last modelInfo message, checked on arrival', () => {
    const message = { type: 'modelInfo', runId: 'run-1', text: 'OpenAI-compatible · m', fallback: null };
    const parsed = parseExtensionMessage(message);
    assert.deepEqual(parsed, message);
    assert.ok(parsed);
    assert.deepEqual(reducePanel(INITIAL_PANEL_STATE, parsed).modelInfo, { runId: 'run-1', text: 'OpenAI-compatible · m', fallback: null });
    assert.equal(parseExtensionMessage({ type: 'modelInfo', runId: 3, text: 'x', fallback: null }), null);
    assert.equal(parseExtensionMessage({ type: 'modelInfo', runId: null, text: 'x' }), null);
  });
});
