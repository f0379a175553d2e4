// What a loaded agent is, without the schema that checks agent.yaml (agent-schema.ts): the runners,
// the tool loop and the trace need these.

import { ConfigurationError } from '../errors';
import type { ProviderName } from '../llm/providers/choice';

export const DEFAULT_MAX_TOKENS = 8192;
export const DEFAULT_TURN_BUDGET = 30;
export const DEFAULT_MAX_MALFORMED = 3;

/** An agent.yaml as checked, defaults filled in (agent-schema.ts holds its schema to this shape). */
export interface AgentYaml {
  name: string;
  description: string;
  version: string;
  requiredTools: string[];
  promptTemplate: string;
  llmConfig: AgentLlmConfig;
  toolConfig: AgentToolConfig;
}

export interface AgentLlmConfig {
  model: string;
  maxTokens: number;
  temperature?: number | undefined;
  provider?: ProviderName | undefined;
}

/** Known settings are checked; others are kept for the tools that read them. */
export interface AgentToolConfig {
  turnBudget?: number | undefined;
  maxMalformed?: number | undefined;
  [setting: string]: unknown;
}

/** The agent.yaml fields, plus what the loader adds. */
export interface AgentDefinition extends AgentYaml {
  /** The prompt file's text (a template: `{{var}}` is filled in when the agent runs). */
  prompt: string;
  /** The folder the agent was loaded from (absolute). */
  sourceDir: string;
  origin: 'bundled' | 'workspace';
}

export type AgentCatalog = ReadonlyMap<string, AgentDefinition>;

/** The named agent, or a ConfigurationError listing the agents there are. */
export function requireAgent(agents: AgentCatalog, name: string): AgentDefinition {
  const agent = agents.get(name);
  if (!agent) {
    throw new ConfigurationError(`No agent named "${name}"; loaded agents: ${[...agents.keys()].join(', ') || '(none)'}`, { agent: name });
  }
  return agent;
}
