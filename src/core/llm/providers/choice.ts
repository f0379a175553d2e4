// Which provider and model an agent's calls go to. The run may name a provider and a model for
// every agent (--provider, --model); otherwise each agent's agent.yaml says (llmConfig.provider,
// llmConfig.model), Anthropic being the default. A run that switches provider must also say which
// model, because an agent's Claude model id means nothing to an OpenAI-compatible server.

import { ConfigurationError } from '../../errors';
import { PROVIDER_NAMES } from './registry';
import type { ProviderName } from './registry';

export { PROVIDER_NAMES };
export type { ProviderName };
export const DEFAULT_PROVIDER: ProviderName = 'anthropic';

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDER_NAMES as readonly string[]).includes(value);
}

export interface ModelChoice {
  provider: ProviderName;
  model: string;
}

export interface AgentModelConfig {
  provider?: ProviderName;
  model: string;
}

/**
 * The one choice of provider and model for an agent's calls in a run. `run.provider` comes from a
 * flag, a setting or a persisted run: one the registry does not know is a ConfigurationError.
 */
export function chooseModel(agentName: string, config: AgentModelConfig, run: { provider?: string; model?: string }): ModelChoice {
  const agentProvider = config.provider ?? DEFAULT_PROVIDER;
  if (run.provider !== undefined && !isProviderName(run.provider)) {
    throw new ConfigurationError(`Unknown model provider "${run.provider}". Known: ${PROVIDER_NAMES.join(', ')}.`, {
      provider: run.provider,
    });
  }
  const provider = run.provider ?? agentProvider;
  if (run.model) return { provider, model: run.model };
  if (provider !== agentProvider) {
    throw new ConfigurationError(
      `The run uses provider "${provider}" but agent "${agentName}" names the ${agentProvider} model (${config.model}): ` +
        `give the model with --model (or the "ironbees.model" setting), or set llmConfig.provider and llmConfig.model in its agent.yaml.`,
      { agent: agentName, provider },
    );
  }
  return { provider, model: config.model };
}

/**
 * The provider an agent's calls go to in a run, for the record (the per-turn trace): 'demo' in a demo
 * run; where the choice cannot work, the run's provider or the default.
 */
export function providerOfRun(
  agentName: string,
  config: AgentModelConfig | undefined,
  run: { provider?: string; model?: string; modelProvider?: string },
): string {
  if (run.modelProvider === 'demo') return 'demo';
  if (config) {
    try {
      return chooseModel(agentName, config, run).provider;
    } catch {
      // Recorded as below; the step itself reports the error.
    }
  }
  return run.provider ?? DEFAULT_PROVIDER;
}
