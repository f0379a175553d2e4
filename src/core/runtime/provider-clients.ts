// The one place that turns "which provider, which keys" into a ModelClient; the CLI's wiring and
// the extension's runtime both call it, through the composition root.

import type { Logger } from '../host';
import type { AgentCatalog } from '../agents/loader';
import { createModelClientFromEnv } from '../llm/providers/anthropic/anthropic';
import type { ModelClient } from '../llm/port';
import { createOpenAIClientFromEnv } from '../llm/providers/openai/client';
import { chooseModel } from '../llm/providers/choice';
import type { ProviderName } from '../llm/providers/choice';
import { ProviderRouter } from '../llm/providers/router';
import { CircuitBreaker, FallbackModelClient } from '../llm/providers/fallback';
import { PacedModelClient } from '../llm/providers/pace';
import type { FallbackTarget } from '../llm/providers/fallback';

export interface ProviderSetup {
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Keys and base URLs from elsewhere than the environment (the extension's SecretStorage and settings). */
  anthropic?: { apiKey?: string; baseURL?: string };
  openai?: { apiKey?: string; baseURL?: string };
}

export function createProviderRouter(setup: ProviderSetup): ProviderRouter {
  return new ProviderRouter({
    anthropic: () => createModelClientFromEnv({ env: setup.env, logger: setup.logger, ...definedOnly(setup.anthropic) }),
    openai: () => createOpenAIClientFromEnv({ env: setup.env, logger: setup.logger, ...definedOnly(setup.openai) }),
  });
}

/**
 * The providers a run's model-driven agents will call (those with tools; the validator calls no
 * model). Throws the configuration error of a choice that cannot work, before anything runs.
 */
export function providersUsedBy(agents: AgentCatalog, run: { provider?: ProviderName; model?: string }): ProviderName[] {
  const used = new Set<ProviderName>();
  for (const agent of agents.values()) {
    if (agent.requiredTools.length === 0) continue;
    used.add(chooseModel(agent.name, agent.llmConfig, run).provider);
  }
  return [...used];
}

export interface RunModelChoice {
  provider?: ProviderName;
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
