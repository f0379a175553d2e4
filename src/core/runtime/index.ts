// The one composition root (ARCHITECTURE.md, "One composition root"): the CLI, the extension and,
// through the CLI, the MCP server build a run's world here: the dotnet check, the host, the tools
// with their MCP source, the agents and the orchestrator. Each face only says where things are
// (its host, its bundled agents, its settings) and in which order it wants its own checks first.

import type { Host, Logger, ProcessRunner } from '../host';
import type { ModelClient } from '../llm/port';
import type { AgentCatalog } from '../agents/loader';
import { loadAgents } from '../agents/loader';
import type { McpManager } from '../mcp/manager';
import { lazyWorkspaceMcpSource } from '../mcp/workspace-source';
import { builtinAgentRegistry, createDefaultToolRegistry } from '../agents/builtin';
import type { AgentRegistry } from '../agents/unit';
import type { ToolRegistry } from '../tools/registry';
import { createOrchestrator } from '../workflow/orchestrator';
import type { RunOrchestrator } from '../workflow/orchestrator';
import type { ToolApprover } from '../workflow/tool-approval';
import type { OpenPhaseRuntime } from '../workflow/parallel-phases';
import { checkDotnet } from './dotnet-check';
import { otlpTracesUrl, startTraceExport } from './telemetry/trace-export';
import type { TraceExportConfig } from './telemetry/trace-export';

export {
  createModelClient,
  createProviderRouter,
  modelClientForRun,
  modelProviderFactory,
  modelProviderNames,
  registerModelProvider,
} from './model-client';
export type { ModelConfig, ModelProviderFactory, ProviderSetup, RunModelChoice } from './model-client';
export { checkDotnet } from './dotnet-check';
export { otlpTracesUrl } from './telemetry/trace-export';
export {
  TRUST_WORKSPACE_FLAG,
  decideWorkspaceTrust,
  ignoredLine,
  isRememberedTrusted,
  rememberTrust,
  trustQuestion,
  workspaceDefinitions,
} from './trust';
export type { TrustDecision, TrustOptions, WorkspaceDefinition } from './trust';
export type { TraceExportConfig } from './telemetry/trace-export';

export interface RuntimeConfig<H extends Host> {
  workspaceRoot: string;
  /**
   * A person trusted the workspace (trust.ts: decideWorkspaceTrust): only then are its own agents
   * (`.ironbees/agents/`) loaded and its MCP servers (`.ironbees/mcp.json`) started; otherwise the
   * built-in agents run and no server of the workspace is started or contacted.
   */
  trusted: boolean;
  logger: Logger;
  /**
   * Made first by the face (createModelClient), so a missing key is the first thing a person hears about;
   * or, where the agents choose their providers (the CLI), made from the agents once they are loaded.
   */
  model: ModelClient | ((agents: AgentCatalog) => ModelClient);
  /** Runs `dotnet --version`: the CLI's host, or in the editor a plain Node runner (a task would flash a terminal). */
  dotnetRunner: ProcessRunner;
  /** The host the run uses, made once dotnet is known to be there. */
  createHost: () => H;
  /** The agents that ship with Ironbees (absolute); `<workspace>/.ironbees/agents/` overrides them. */
  bundledAgentsDir: string;
  /**
   * A further folder whose agents override and extend those (the editor's "ironbees.agentsFolder"),
   * asked for once the bundled and workspace agents have loaded; it may throw a ConfigurationError.
   */
  agentOverridesDir?: () => string | undefined;
  /**
   * The MCP servers' tools: a manager the face configured (the editor's settings), or absent for the
   * workspace's `.ironbees/mcp.json`, started only when an agent asks for an `mcp__` tool. `trusted`:
   * whether the manager may read the workspace's mcp.json.
   */
  mcp?: (host: H, trusted: boolean) => McpManager;
  /** Asks before a tool with side effects runs; absent, such calls are refused (unless the policy is never). */
  askToolApproval?: ToolApprover;
  /** The agents' runners and terminal tools (default: the built-in planner and coder). */
  agentUnits?: AgentRegistry;
  /** Where runs are exported as OpenTelemetry traces (a setting, the OTEL_* variables); off when neither is set. */
  telemetry?: TraceExportConfig;
  /** Makes the runtime of a phase run in a worktree of its own (--parallel N); without it phases run one at a time. */
  phaseRuntimes?: OpenPhaseRuntime;
}

export interface AssembledRuntime<H extends Host> {
  host: H;
  orchestrator: RunOrchestrator;
  tools: ToolRegistry;
  agents: AgentCatalog;
  /** Stops the MCP servers the runtime's own manager started (none for the lazy workspace source). */
  closeMcp(): Promise<void>;
  /** Sends the runs' spans still held (none when trace export is off); call before the process ends. */
  flushTelemetry(): Promise<void>;
}

export async function assembleRuntime<H extends Host>(config: RuntimeConfig<H>): Promise<AssembledRuntime<H>> {
  // The agents are read and checked (CPU) while the SDK check waits on the disk or on dotnet; a
  // missing SDK is still the error a run reports first, and no host is made before the SDK is there.
  const agentUnits = config.agentUnits ?? builtinAgentRegistry();
  const tools = createDefaultToolRegistry(agentUnits);
  const loadingAgents = loadRunAgents({ ...config, agentUnits }, tools.names());
  loadingAgents.catch(() => undefined); // awaited below; unobserved only when the SDK check fails first
  const version = await checkDotnet(config.dotnetRunner, config.workspaceRoot);
  config.logger.debug(`dotnet ${version}`);
  const host = config.createHost();
  const mcp = config.mcp?.(host, config.trusted);
  if (mcp) tools.addSource(mcp);
  else if (config.trusted) tools.addSource(lazyWorkspaceMcpSource(host));
  const agents = await loadingAgents;
  const approval = config.askToolApproval ? { askToolApproval: config.askToolApproval } : {};
  const model = typeof config.model === 'function' ? config.model(agents) : config.model;
  const phases = config.phaseRuntimes ? { phaseRuntimes: config.phaseRuntimes } : {};
  const orchestrator = createOrchestrator({ host, model, agents, tools, agentUnits, ...approval, ...phases });
  const otlpUrl = config.telemetry ? otlpTracesUrl(config.telemetry) : null;
  const traces = otlpUrl && config.telemetry ? startTraceExport(orchestrator.store, otlpUrl, config.telemetry, config.logger) : null;
  return {
    host,
    orchestrator,
    tools,
    agents,
    closeMcp: () => mcp?.close() ?? Promise.resolve(),
    flushTelemetry: () => traces?.flush() ?? Promise.resolve(),
  };
}

/**
 * The one place agents are loaded for a run. A broken workspace agent fails the run up front (the file
 * and field named) rather than silently falling back to the bundled one the person meant to override.
 */
export async function loadRunAgents(
  config: Pick<RuntimeConfig<Host>, 'bundledAgentsDir' | 'workspaceRoot' | 'trusted' | 'agentOverridesDir' | 'logger' | 'agentUnits'>,
  knownTools: readonly string[],
): Promise<AgentCatalog> {
  const warn = (message: string): void => config.logger.warn(message);
  const agents = await loadAgents({
    bundledDir: config.bundledAgentsDir,
    ...(config.trusted ? { workspaceRoot: config.workspaceRoot } : {}),
    knownTools,
    onInvalidWorkspaceAgent: 'fail',
    warn,
    ...(config.agentUnits ? { units: config.agentUnits } : {}),
  });
  const overridesDir = config.agentOverridesDir?.();
  if (!overridesDir) return agents;
  const overrides = await loadAgents({
    bundledDir: overridesDir,
    knownTools,
    warn,
    ...(config.agentUnits ? { units: config.agentUnits } : {}),
  });
  return new Map([...agents, ...overrides]);
}
