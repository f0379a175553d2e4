import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  apiKeyStatusText,
  noKeyMessage,
  providerModelText,
  providerWorkflowExtras,
  readProviderSettings,
} from '../../../src/extension/provider-settings';

const reader =
  (values: Record<string, unknown>) =>
  (key: string): unknown =>
    values[key];

describe('provider settings (issue 13)', () => {
  it('reads provider, base URL, context files, budgets and fallback', () => {
    const settings = readProviderSettings(
      reader({
        provider: 'openai',
        openaiBaseUrl: ' http://127.0.0.1:11434/v1 ',
        contextFiles: ['docs/rules.md', '', 3],
        'budget.maxCostUsd': 2,
        'budget.maxTokens': 1000.7,
        'budget.maxMinutes': null,
        'fallback.provider': 'anthropic',
        'fallback.model': 'claude-haiku-4-5',
      }),
    );
    assert.deepEqual(settings, {
      provider: 'openai',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      contextFiles: ['docs/rules.md'],
      budget: { maxCostUsd: 2, maxTokens: 1000 },
      fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' },
    });
    const root = path.resolve('/ws');
    assert.deepEqual(providerWorkflowExtras(settings, root), {
      provider: 'openai',
      contextFiles: [path.join(root, 'docs/rules.md')],
      budget: { maxCostUsd: 2, maxTokens: 1000 },
      fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' },
    });
  });

  it('bad or missing values mean Anthropic and nothing added to the run', () => {
    const settings = readProviderSettings(reader({ provider: 'gemini', 'budget.maxCostUsd': -1, 'fallback.provider': 'openai' }));
    assert.deepEqual(settings, { provider: 'anthropic', openaiBaseUrl: '', contextFiles: [], budget: {}, fallback: null });
    assert.deepEqual(providerWorkflowExtras(settings, '/ws'), {});
  });

  it('the no-key message names the provider; the status text names provider and model', () => {
    assert.match(noKeyMessage('openai'), /^No OpenAI-compatible API key\. Run "Ironbees: Set API Key" and choose OpenAI-compatible/);
    assert.match(noKeyMessage('anthropic'), /^No Anthropic API key\. Run "Ironbees: Set API Key" and choose Anthropic/);
    assert.equal(providerModelText('openai', 'qwen2.5-coder:7b'), 'OpenAI-compatible · qwen2.5-coder:7b');
    assert.equal(providerModelText('anthropic', ''), 'Anthropic · each agent\u2019s model');
  });

  it("the key's state names the provider the settings choose, not always Anthropic", () => {
    assert.equal(apiKeyStatusText('openai', true, false), 'OpenAI-compatible API key set');
    assert.equal(apiKeyStatusText('anthropic', true, false), 'Anthropic API key set');
    assert.equal(
      apiKeyStatusText('openai', false, false),
      'No OpenAI-compatible API key: run "Ironbees: Set API Key" and choose OpenAI-compatible',
    );
    assert.equal(apiKeyStatusText('anthropic', true, true), 'The scripted demo model answers: no API key needed');
  });
});
