// One provider registry (core/runtime/model-client.ts): createModelClient and the router a run uses
// make their clients through the same factories, so a provider registered once serves both.

import { strict as assert } from 'node:assert';
import type { Logger } from '../../../src/core/host';
import { ScriptedModelClient } from '../../../src/core/llm/scripted';
import { chatText, startFakeOpenAI } from '../../support/fake-openai';
import {
  createModelClient,
  createProviderRouter,
  modelProviderFactory,
  modelProviderNames,
  registerModelProvider,
} from '../../../src/core/runtime';
import type { ModelConfig } from '../../../src/core/runtime';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('one provider registry', () => {
  it('the run router makes a provider’s client with the registered factory, given the keys for that provider', () => {
    const original = modelProviderFactory('openai');
    assert.ok(original, 'openai is a built-in provider');
    const seen: ModelConfig[] = [];
    const model = new ScriptedModelClient([]);
    registerModelProvider('openai', (config) => {
      seen.push(config);
      return model;
    });
    try {
      const env = { OPENAI_API_KEY: undefined };
      const router = createProviderRouter({ env, logger: silent, openai: { apiKey: 'k-1', baseURL: '' } });
      assert.equal(router.clientFor('openai'), model);
      assert.equal(router.clientFor('openai'), model, 'made once, then reused');
      assert.deepEqual(seen, [{ provider: 'openai', env, logger: silent, apiKey: 'k-1' }]);
    } finally {
      registerModelProvider('openai', original);
    }
  });

  it('createModelClient knows every provider an agent may name, as the router does', async () => {
    assert.deepEqual(modelProviderNames().slice(0, 3), ['anthropic', 'openai', 'demo']);
    assert.throws(
      () => createModelClient({ provider: 'openai', env: {} }),
      /^ConfigurationError: No OpenAI API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server \(Ollama, LM Studio, vLLM need no key\)\.$/,
    );
    // The client loads its SDK with its first call, and that call goes to the OpenAI-compatible endpoint.
    const fake = await startFakeOpenAI();
    try {
      fake.enqueue(chatText('hello from the fake'));
      const client = createModelClient({ provider: 'openai', env: { OPENAI_BASE_URL: fake.url }, logger: silent });
      const answer = await client.complete({
        model: 'local-model',
        system: '',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxTokens: 16,
      });
      assert.deepEqual(answer.content, [{ type: 'text', text: 'hello from the fake' }]);
      assert.equal(fake.requests.length, 1);
      assert.equal(fake.requests[0].body.model, 'local-model');
    } finally {
      await fake.close();
    }
    const router = createProviderRouter({ env: {}, logger: silent });
    assert.throws(() => router.clientFor('anthropic'), /^ConfigurationError: No Anthropic API key/);
  });
});
