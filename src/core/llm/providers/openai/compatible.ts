// A provider served by an OpenAI-compatible Chat Completions endpoint: the OpenAI client with the
// provider's own name, variables and default endpoint. A new such provider is one folder whose
// provider.ts calls this, and one line in registry.ts.

import type { ModelProvider } from '../provider';
import { openAICompatibleSettings } from '../provider-settings';

export interface OpenAICompatibleOptions<Name extends string> {
  name: Name;
  label: string;
  envVariables: { apiKey: string; baseURL: string };
  /** Where requests go when neither the face nor the environment names an endpoint (absent: OpenAI's). */
  defaultBaseURL?: string;
  defaultModel?: string;
}

export function openAICompatibleProvider<Name extends string>(options: OpenAICompatibleOptions<Name>): ModelProvider<Name> {
  return {
    name: options.name,
    label: options.label,
    envVariables: options.envVariables,
    ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
    settings: (input) => openAICompatibleSettings(input, options),
    load: async (settings) => new (await import('./client.js')).OpenAIModelClient(settings),
  };
}
