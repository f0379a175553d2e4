// createModelClient: the one place a face turns its configuration into a model client. Providers are
// a registry keyed by name, so a new provider is a folder under llm/providers/ plus one line here
// (CONTRIBUTING.md, "Add a model provider").

import type { Logger } from '../host';
import { ConfigurationError } from '../errors';
import type { ModelClient } from '../llm/port';
import { createModelClientFromEnv } from '../llm/providers/anthropic/anthropic';
import { createDemoModelClient } from '../llm/providers/demo/demo-model';

export interface ModelConfig {
  /** A registered provider's name: 'anthropic' (Claude) or 'demo' (the scripted demo model). */
  provider: string;
  /** The key as the face found it (secret storage, a flag); absent: the provider reads `env`. */
  apiKey?: string;
  baseURL?: string;
  /** Where a provider looks for its key and endpoint when not given (the CLI: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
}

export type ModelProviderFactory = (config: ModelConfig) => ModelClient;

const providers = new Map<string, ModelProviderFactory>([
  [
    'anthropic',
    (config) =>
      createModelClientFromEnv({
        env: config.env ?? {},
        ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
        ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
        ...(config.logger ? { logger: config.logger } : {}),
      }),
  ],
  ['demo', () => createDemoModelClient()],
]);

/** Adds (or replaces) a provider; tests and embedders use it, the built-ins are above. */
export function registerModelProvider(name: string, factory: ModelProviderFactory): void {
  providers.set(name, factory);
}

export function modelProviderNames(): string[] {
  return [...providers.keys()];
}

/** The client for `config.provider`; a provider that is not registered is a ConfigurationError naming those that are. */
export function createModelClient(config: ModelConfig): ModelClient {
  const factory = providers.get(config.provider);
  if (!factory) {
    throw new ConfigurationError(`Unknown model provider "${config.provider}". Known: ${modelProviderNames().join(', ')}.`, {
      provider: config.provider,
    });
  }
  return factory(config);
}
