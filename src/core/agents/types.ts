// What an agent needs to run: the Host, the model, the tools and the agent definitions, plus the
// run's trace and cancellation. Built per step by the workflow (step-actors.ts).

import type { Host } from '../host';
import type { ModelClient } from '../llm/port';
import type { ToolRegistry } from '../tools/registry';
import type { ToolApprovalGate } from '../tools/types';
import type { TraceSink } from '../trace';
import type { ActivitySink } from '../activity';
import type { AgentCatalog } from './agent-definition';

export interface AgentRuntime {
  host: Host;
  model: ModelClient;
  tools: ToolRegistry;
  agents: AgentCatalog;
  /** Replaces every agent's llmConfig.model (the CLI's --model). */
  modelOverride?: string;
  /** The team's instructions (AGENTS.md, --context files), appended to the agent's system prompt. */
  instructions?: string;
  /** Replaces every agent's llmConfig.provider (the CLI's --provider). */
  providerOverride?: string;
  trace?: TraceSink;
  /** The run's live activity (model words, tool lines); absent when nobody watches. */
  activity?: ActivitySink;
  signal?: AbortSignal;
  /**
   * How tools with side effects outside the overlay are approved (from the run's approval setting).
   * Absent: they run, as for any caller that approved the run's actions up front.
   */
  toolApproval?: ToolApprovalGate;
  /**
   * Said before the first message when the supervisor restarts a stopped agent (supervisor/policy.ts:
   * what it had done, its staged files, its last words; or the reduced scope it starts fresh on).
   */
  continuation?: string;
}
