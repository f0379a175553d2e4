import assert from 'node:assert/strict';
import { isOpenAIReasoningModel, samplingParameters } from '../../../src/core/llm/providers/openai/model-family';

describe('OpenAI model families', () => {
  it('knows the reasoning models by name, a router prefix included', () => {
    const reasoning = [
      'gpt-5',
      'gpt-5-mini',
      'GPT-5-nano',
      'gpt-5.1',
      'gpt-5-2025-08-07',
      'o1',
      'o1-mini',
      'o3',
      'o3-mini',
      'o4-mini',
      'openai/gpt-5-mini',
    ];
    const others = ['gpt-4.1', 'gpt-4o-mini', 'gpt-50', 'o2', 'o1x', 'qwen2.5-coder:7b', 'ollama', 'claude-sonnet-4-6', 'llama-o3'];
    assert.deepEqual(
      reasoning.filter((m) => !isOpenAIReasoningModel(m)),
      [],
    );
    assert.deepEqual(
      others.filter((m) => isOpenAIReasoningModel(m)),
      [],
    );
  });

  it('sends a reasoning model no temperature and max_completion_tokens, whatever the server', () => {
    assert.deepEqual(samplingParameters('gpt-5-mini', { maxTokens: 800, temperature: 0, officialApi: false }), {
      params: { max_completion_tokens: 800 },
      dropped: { temperature: 0 },
    });
    assert.deepEqual(samplingParameters('o3', { maxTokens: 800, officialApi: true }), { params: { max_completion_tokens: 800 } });
  });

  it('sends another model its temperature, with max_tokens except on the official API', () => {
    assert.deepEqual(samplingParameters('gpt-4.1', { maxTokens: 800, temperature: 0, officialApi: false }), {
      params: { max_tokens: 800, temperature: 0 },
    });
    assert.deepEqual(samplingParameters('gpt-4.1', { maxTokens: 800, temperature: 0.2, officialApi: true }), {
      params: { max_completion_tokens: 800, temperature: 0.2 },
    });
  });
});
