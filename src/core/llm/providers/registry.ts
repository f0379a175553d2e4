// The model providers, one line each. Every name a face accepts (the CLI's --provider, agent.yaml's
// llmConfig.provider, the editor's settings) and the ProviderName type are read from this list.

import { anthropicProvider } from './anthropic/provider';
import { openAIProvider } from './openai/provider';

export const MODEL_PROVIDERS = [anthropicProvider, openAIProvider] as const;

export type ProviderName = (typeof MODEL_PROVIDERS)[number]['name'];
export const PROVIDER_NAMES = MODEL_PROVIDERS.map((provider) => provider.name) as [ProviderName, ...ProviderName[]];
