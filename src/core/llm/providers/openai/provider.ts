// Any OpenAI-compatible Chat Completions endpoint: OpenAI, Azure OpenAI, OpenRouter, Ollama, LM Studio, vLLM.

import { openAICompatibleProvider } from './compatible';

export const openAIProvider = openAICompatibleProvider({
  name: 'openai',
  label: 'Any OpenAI-compatible Chat Completions endpoint: OpenAI, Azure OpenAI, OpenRouter, Ollama, LM Studio, vLLM.',
  envVariables: { apiKey: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL' },
});
