// Which provider and model an agent's calls go to. The run may name a provider and a model for
// every agent (--provider, --model); otherwise each agent's agent.yaml says (llmConfig.provider,
// llmConfig.model), Anthropic being the default. A run that switches provider must also say which
// model, because an agent's Claude model id means nothing to an OpenAI-compatible server.

import { ConfigurationError } from '../../errors';

export const PROVIDER_NAMES = ['anthropic', 'openai'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
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

export function chooseModel(agentName: string, config: AgentModelConfig, run: { provider?: ProviderName; model?: string }): ModelChoice {
  const agentProvider = config.provider ?? DEFAULT_PROVIDER;
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
