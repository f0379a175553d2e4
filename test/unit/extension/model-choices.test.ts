// The model picker offers every provider of the registry and the demo model, marks the current one,
// suggests its model, and writes exactly the provider, the model and the demo model off.

import assert from 'node:assert/strict';
import { PROVIDER_NAMES } from '../../../src/core/llm/providers/registry';
import { modelChoices, settingsFor } from '../../../src/extension/model-choices';

describe('the model picker', () => {
  it('offers each provider of the registry, then the demo model; the current one is marked with its model', () => {
    const choices = modelChoices({ demoModel: false, provider: 'openai', model: 'qwen2.5-coder:7b' });
    assert.deepEqual(
      choices.map((c) => c.provider),
      [...PROVIDER_NAMES, null],
    );
    assert.deepEqual(
      choices.filter((c) => c.current).map((c) => [c.label, c.suggestedModel]),
      [['OpenAI-compatible', 'qwen2.5-coder:7b']],
    );
    const anthropic = choices.find((c) => c.provider === 'anthropic');
    assert.equal(anthropic?.label, 'Anthropic');
    assert.equal(anthropic?.current, false);
  });

  it('with the demo model on, only it is current', () => {
    const choices = modelChoices({ demoModel: true, provider: 'anthropic', model: '' });
    assert.deepEqual(
      choices.filter((c) => c.current).map((c) => c.label),
      ['Scripted demo model'],
    );
  });

  it('writes the provider, the trimmed model and the demo model off; the demo model alone turns it on', () => {
    const [anthropic] = modelChoices({ demoModel: true, provider: 'anthropic', model: '' });
    assert.deepEqual(settingsFor(anthropic, '  claude-sonnet-4-6 '), [
      { key: 'provider', value: 'anthropic' },
      { key: 'model', value: 'claude-sonnet-4-6' },
      { key: 'demoModel', value: false },
    ]);
    const demo = modelChoices({ demoModel: false, provider: 'anthropic', model: '' }).at(-1);
    assert.ok(demo);
    assert.deepEqual(settingsFor(demo, 'ignored'), [{ key: 'demoModel', value: true }]);
  });
});
