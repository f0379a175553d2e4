// Which provider and model the panel names: the shown run's own (kept in its metadata), else the
// settings' choice for the next run (issue 13).

import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { modelInfoMessage } from '../../../src/extension/model-info';
import type { IronbeesSettings } from '../../../src/extension/settings';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { makeRun } from '../webview/fixtures';
import { workflow } from '../workflow/samples';

function settings(overrides: Partial<IronbeesSettings> = {}): IronbeesSettings {
  return { provider: 'anthropic', model: '', demoModel: false, fallback: null, ...overrides } as IronbeesSettings;
}

describe('modelInfoMessage: the provider and model the panel shows', () => {
  it('names the run\u2019s own provider, model and fallback, whatever the settings say now', () => {
    const run = makeRun({
      stateId: 'run-7',
      metadata: { provider: 'openai', model: 'gpt-4.1-mini', fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' } },
    });
    assert.deepEqual(modelInfoMessage(run, settings({ provider: 'anthropic', model: 'other' })), {
      type: 'modelInfo',
      runId: 'run-7',
      text: 'OpenAI-compatible · gpt-4.1-mini',
      fallback: 'Anthropic · claude-haiku-4-5',
    });
  });

  it('names the demo model for a run begun with it', () => {
    const run = makeRun({ stateId: 'run-d', metadata: { modelProvider: 'demo' } });
    assert.deepEqual(modelInfoMessage(run, settings({ provider: 'openai' })), {
      type: 'modelInfo',
      runId: 'run-d',
      text: 'the scripted demo model',
      fallback: null,
    });
  });

  it('with no run, or a run that recorded no choice, names what the settings choose for the next run', () => {
    const next = settings({
      provider: 'openai',
      model: 'qwen2.5-coder:7b',
      fallback: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    const expected = {
      type: 'modelInfo',
      runId: null,
      text: 'OpenAI-compatible · qwen2.5-coder:7b',
      fallback: 'Anthropic · claude-sonnet-4-5',
    };
    assert.deepEqual(modelInfoMessage(null, next), expected);
    assert.deepEqual(modelInfoMessage(makeRun({ metadata: {} }), next), expected);
    assert.deepEqual(modelInfoMessage(null, settings()), {
      type: 'modelInfo',
      runId: null,
      text: 'Anthropic · each agent\u2019s model',
      fallback: null,
    });
    assert.deepEqual(modelInfoMessage(null, settings({ demoModel: true })), {
      type: 'modelInfo',
      runId: null,
      text: 'the scripted demo model',
      fallback: null,
    });
  });
});

describe('the run state keeps the provider, model and fallback the run started with', () => {
  it('records them in metadata, so the panel names them for that run', () => {
    const context = initialContext({
      stateId: 'run-9',
      userRequest: 'x',
      createdAt: '2026-01-01T00:00:00.000Z',
      workflow: workflow({ provider: 'openai', model: 'gpt-4.1', fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' } }),
    });
    const state = toCodingState(context, 'PLAN', '2026-01-01T00:00:01.000Z');
    assert.equal(state.metadata.provider, 'openai');
    assert.equal(state.metadata.model, 'gpt-4.1');
    assert.deepEqual(state.metadata.fallback, { provider: 'anthropic', model: 'claude-haiku-4-5' });
    assert.deepEqual(modelInfoMessage(state, settings()), {
      type: 'modelInfo',
      runId: 'run-9',
      text: 'OpenAI-compatible · gpt-4.1',
      fallback: 'Anthropic · claude-haiku-4-5',
    });
  });

  it('records none of them for a run that chose none (each agent.yaml decides)', () => {
    const state = toCodingState(
      initialContext({ stateId: 'r', userRequest: 'x', createdAt: '2026-01-01T00:00:00.000Z', workflow: workflow() }),
      'PLAN',
      't',
    );
    assert.equal('provider' in state.metadata, false);
    assert.equal('fallback' in state.metadata, false);
  });
});
