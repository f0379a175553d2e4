// Builds what a run needs in the CLI: the Node host and the build target here, the rest through the
// one composition root (core/runtime). Every check that can fail for a configuration reason (no API
// key, nothing to build, no dotnet, a bad agent.yaml) runs before a run starts, so a bad setup exits 2
// with nothing changed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Host, Logger } from '../core/host';
import type { ModelClient } from '../core/llm/port';
import type { Orchestrator } from '../core/trace';
import type { ToolApprover } from '../core/workflow/tool-approval';
import type { OpenPhaseRuntime } from '../core/workflow/parallel-phases';
import { ConfigurationError } from '../core/errors';
import { assembleRuntime, checkDotnet, createModelClient, createProviderRouter, modelClientForRun } from '../core/runtime';
import type { AgentCatalog } from '../core/agents/loader';
import { findBuildTarget, shutdownBuildServers } from '../core/runtime/faces';
import { checkSandbox, setSandboxMode } from '../core/platform/sandbox';
import type { SandboxMode } from '../core/platform/sandbox';
import { NodeFileSystem, createNodeHost, stopLingeringProcessGroups } from '../host/node/index';
import { version } from '../../package.json';

export interface RuntimeOptions {
  workspaceRoot: string;
  /** A person trusted the workspace (workspace-trust.ts): its agents and MCP servers are used. */
  trusted: boolean;
  demo: boolean;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Asks before a tool with side effects runs; without it such calls are refused (unless the policy is never). */
  askToolApproval?: ToolApprover;
  /**
   * For a new run: the solution or project the person named (workspace-relative), or null to find
   * the workspace's own. Checked here, so a folder with none, or several and no choice, is exit 2
   * before anything is written. Absent (resume, mcp): the run keeps the target it started with.
   */
  target?: string | null;
  /**
   * For resume: the target the run started with (workspace-relative), which the C# engine opens.
   * A new run's engine opens `target` as found; without either it opens the workspace's own.
   */
  engineTarget?: string;
  /** The run's --provider and --model (for resume: those it was started with); each agent.yaml's when absent. */
  provider?: string;
  model?: string;
  fallback?: { provider: string; model: string };
  /** --min-call-interval, in ms. */
  minCallIntervalMs?: number;
  /** --sandbox (for resume: the run's own unless given again); auto when absent. */
  sandbox?: SandboxMode;
  /** The host the run uses, made from the Node host (the ACP face writes approved edits through the editor). */
  decorateHost?: (host: Host) => Host;
  /** --parallel N: makes the runtime of each phase run in a worktree of its own. */
  phaseRuntimes?: OpenPhaseRuntime;
  /**
   * A phase's runtime, beside others in this process: its C# engine starts when a tool first needs it
   * (not while the run plans: there is no planning), and at its end only its worktree's build servers
   * (its own handshake salt) are asked to stop; the others' may be building.
   */
  phase?: boolean;
}

export interface Runtime {
  host: Host;
  orchestrator: Orchestrator;
  /**
   * Called when the command is done with the runtime: stops the MSBuild server and nodes its builds
   * started (this process's own, by their handshake salt), which would otherwise idle for minutes.
   */
  dispose?(): Promise<void>;
  /** The build target found for a new run (workspace-relative), when `target` was asked about. */
  target?: string;
}

/** Tests of the commands pass their own: a fake orchestrator, no dotnet, no model. */
export interface CliDeps {
  createRuntime(options: RuntimeOptions): Promise<Runtime>;
  /** The host for `runs` and `revert`, which need neither a model nor dotnet. */
  createHost(workspaceRoot: string, logger: Logger): Host;
}

/**
 * The bundled agents sit in `<package root>/agents`: one folder up from `dist/cli.js`, two up from
 * `src/cli/` when the sources run directly (tests, tsx).
 */
export function bundledAgentsDir(): string {
  const candidates = [path.join(__dirname, '..', 'agents'), path.join(__dirname, '..', '..', 'agents')];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

/** The SDK the workspace selects; a missing dotnet or a global.json pinning an absent SDK is exit 2, named. */
export function ensureDotnet(host: Host): Promise<string> {
  return checkDotnet(host.process, host.workspaceRoot);
}

/** The demo model at once; a provider's client once the agents say which providers they use. */
function createModel(options: RuntimeOptions): ModelClient | ((agents: AgentCatalog) => ModelClient) {
  if (options.demo) return createModelClient({ provider: 'demo' });
  return (agents) =>
    modelClientForRun(createProviderRouter({ env: options.env, logger: options.logger }), agents, {
      provider: options.provider,
      model: options.model,
      ...(options.minCallIntervalMs ? { minCallIntervalMs: options.minCallIntervalMs } : {}),
      ...(options.fallback ? { fallback: options.fallback, onSwitch: (message: string) => options.logger.warn(message) } : {}),
    });
}

function createHost(workspaceRoot: string, logger: Logger): Host {
  return createNodeHost(workspaceRoot, { logger });
}

/** The target's workspace-relative path; when the workspace has several, says how to choose on this command line. */
async function buildTargetOf(host: Pick<Host, 'workspaceRoot' | 'fs'>, requested: string | null): Promise<string> {
  try {
    return (await findBuildTarget(host, requested ?? undefined)).relPath;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const candidates = error.details.candidates;
    if (!Array.isArray(candidates) || candidates.length === 0) throw error;
    throw new ConfigurationError(`${error.message} Choose with --target, e.g. --target ${String(candidates[0])}`, error.details);
  }
}

/**
 * At the end of a CLI run nothing it started keeps running: on POSIX its lingering process groups (build
 * servers, nodes, test hosts) get a signal each, at once; on Windows, where commands run in no group of
 * their own, the build servers of this process (its own handshake salt) are asked to shut down. A phase's
 * run stops only what its own worktree's commands left (the other phases may be building).
 */
async function stopWhatTheRunStarted(host: Host, phase: boolean): Promise<void> {
  if (process.platform === 'win32' || (phase && !host.process.stopLeftRunning)) await shutdownBuildServers(host);
  else if (phase) host.process.stopLeftRunning?.();
  else stopLingeringProcessGroups();
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  // The key first: it is the cheapest check and the likeliest to be missing.
  const model = createModel(options);
  // The sandbox before anything is built: `on` without one is exit 2; `auto` without one says so once.
  setSandboxMode(options.sandbox ?? 'auto');
  checkSandbox((message) => options.logger.warn(message), options.env);
  // Then what to build: no dotnet is needed to see that there is nothing to build.
  const workspace = { workspaceRoot: path.resolve(options.workspaceRoot), fs: new NodeFileSystem() };
  const target = options.target === undefined ? undefined : await buildTargetOf(workspace, options.target);
  // The C# engine opens what the run builds (--target), not whichever solution it would find,
  const engineTarget = target ?? options.engineTarget;
  // and starts loading it now, while the run plans (or the MCP server waits for its first call).
  const nodeHost = createNodeHost(options.workspaceRoot, {
    logger: options.logger,
    warmEngine: options.phase !== true,
    ...(engineTarget ? { engineTarget } : {}),
  });
  const host = options.decorateHost ? options.decorateHost(nodeHost) : nodeHost;
  // Then dotnet, the tools (the workspace's MCP servers on first use) and the agents: core/runtime.
  const { orchestrator, flushTelemetry } = await assembleRuntime({
    workspaceRoot: options.workspaceRoot,
    trusted: options.trusted,
    logger: options.logger,
    model,
    dotnetRunner: host.process,
    createHost: () => host,
    bundledAgentsDir: bundledAgentsDir(),
    ...(options.askToolApproval ? { askToolApproval: options.askToolApproval } : {}),
    ...(options.phaseRuntimes ? { phaseRuntimes: options.phaseRuntimes } : {}),
    // OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) turns the export on.
    telemetry: { env: options.env, serviceVersion: version },
  });
  const dispose = async (): Promise<void> => {
    await flushTelemetry();
    await stopWhatTheRunStarted(host, options.phase === true);
  };
  return { host, orchestrator, ...(target ? { target } : {}), dispose };
}

export const defaultCliDeps: CliDeps = { createRuntime, createHost };
