// The providers by name (llm/providers/registry.ts, and the demo model), each a factory from a face's
// configuration to a ModelClient (CONTRIBUTING.md, "Add a model provider"). createModelClient makes one client; the
// router a run uses (an agent may name its provider in agent.yaml) makes each provider's client
// through the same registry, on first use, and modelClientForRun makes the run's up front so a
// missing key fails before any work.

import type { Logger } from '../host';
import { ConfigurationError } from '../errors';
import type { AgentCatalog } from '../agents/loader';
import type { ModelClient } from '../llm/port';
import { createDemoModelClient } from '../llm/providers/demo/demo-model';
import { lazyModelClient } from '../llm/providers/lazy-client';
import type { ModelProvider } from '../llm/providers/provider';
import { MODEL_PROVIDERS } from '../llm/providers/registry';
import { PROVIDER_NAMES, chooseModel } from '../llm/providers/choice';
import type { ProviderName } from '../llm/providers/choice';
import { ProviderRouter } from '../llm/providers/router';
import type { ProviderFactories } from '../llm/providers/router';
import { CircuitBreaker, FallbackModelClient } from '../llm/providers/fallback';
import { PacedModelClient } from '../llm/providers/pace';
import type { FallbackTarget } from '../llm/providers/fallback';

export interface ModelConfig {
  /** A registered provider's name: one of llm/providers/registry.ts, or 'demo' (the scripted demo model). */
  provider: string;
  /** The key as the face found it (secret storage, a flag); absent: the provider reads `env`. */
  apiKey?: string;
  baseURL?: string;
  /** Where a provider looks for its key and endpoint when not given (the CLI: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
}

export type ModelProviderFactory = (config: ModelConfig) => ModelClient;

const definedSettings = (config: ModelConfig) => ({
  env: config.env ?? {},
  ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
  ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
});

/** A provider module's factory: its key is checked now (a run without one fails before any work); its SDK loads with the first call. */
export function providerFactory(provider: ModelProvider): ModelProviderFactory {
  return (config) => {
    const settings = provider.settings(definedSettings(config));
    return lazyModelClient(() => provider.load({ ...settings, ...(config.logger ? { logger: config.logger } : {}) }));
  };
}

const providers = new Map<string, ModelProviderFactory>([
  ...MODEL_PROVIDERS.map((provider): [string, ModelProviderFactory] => [provider.name, providerFactory(provider)]),
  ['demo', () => createDemoModelClient()],
]);

/** Adds (or replaces) a provider; tests and embedders use it, the built-ins are above. */
export function registerModelProvider(name: string, factory: ModelProviderFactory): void {
  providers.set(name, factory);
}

/** The registered factory of a provider, if any (so a test can put back what it replaced). */
export function modelProviderFactory(name: string): ModelProviderFactory | undefined {
  return providers.get(name);
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

/** Keys and base URLs from elsewhere than the environment (the extension's SecretStorage and settings), per provider. */
export type ProviderKeys = { [P in ProviderName]?: { apiKey?: string; baseURL?: string } };

export type ProviderSetup = ProviderKeys & {
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
};

/** A router over every provider an agent may name (PROVIDER_NAMES), each client made by the registry above. */
export function createProviderRouter(setup: ProviderSetup): ProviderRouter {
  const factories: ProviderFactories = {};
  for (const provider of PROVIDER_NAMES) {
    factories[provider] = () => createModelClient({ provider, env: setup.env, logger: setup.logger, ...definedOnly(setup[provider]) });
  }
  return new ProviderRouter(factories);
}

/**
 * The providers a run's model-driven agents will call (those with tools; the validator calls no
 * model). Throws the configuration error of a choice that cannot work, before anything runs.
 */
export function providersUsedBy(agents: AgentCatalog, run: { provider?: string; model?: string }): ProviderName[] {
  const used = new Set<ProviderName>();
  for (const agent of agents.values()) {
    if (agent.requiredTools.length === 0) continue;
    used.add(chooseModel(agent.name, agent.llmConfig, run).provider);
  }
  return [...used];
}

export interface RunModelChoice {
  provider?: string;
  model?: string;
  fallback?: FallbackTarget;
  /** Where a switch to the fallback (and back) is told. */
  onSwitch?: (message: string) => void;
  /** Minimum time between the starts of two model calls, in ms (none when absent). */
  minCallIntervalMs?: number;
}

/**
 * Makes the client of every provider the run will use now (the fallback's too), so a missing key
 * is exit 2 before any work; with a fallback, wraps the router in the circuit breaker.
 */
export function modelClientForRun(router: ProviderRouter, agents: AgentCatalog, run: RunModelChoice): ModelClient {
  for (const provider of providersUsedBy(agents, run)) router.clientFor(provider);
  let client: ModelClient = router;
  if (run.fallback) {
    router.clientFor(run.fallback.provider);
    client = new FallbackModelClient(router, router, run.fallback, new CircuitBreaker(), run.onSwitch);
  }
  return run.minCallIntervalMs ? new PacedModelClient(client, run.minCallIntervalMs) : client;
}

function definedOnly(options: { apiKey?: string; baseURL?: string } | undefined): { apiKey?: string; baseURL?: string } {
  return {
    ...(options?.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options?.baseURL ? { baseURL: options.baseURL } : {}),
  };
}
