// A toy OpenAI-compatible provider, written as the recipe says a new one is (CONTRIBUTING.md, "Add a
// model provider"): this folder's provider.ts, then its line in the registry. Its tests register it
// at run time instead of editing src/core/llm/providers/registry.ts.

import { openAICompatibleProvider } from '../../../src/core/llm/providers/openai/compatible';

export const toyProvider = openAICompatibleProvider({
  name: 'toy',
  label: 'A toy OpenAI-compatible server for tests.',
  envVariables: { apiKey: 'TOY_API_KEY', baseURL: 'TOY_BASE_URL' },
  defaultModel: 'toy-model-1',
});
