// Builds what a run needs inside VS Code, as src/cli/wiring.ts does for the CLI: the VS Code host,
// the model client (provider-model.ts: the chosen provider's with its fallback, or the scripted demo
// model), the agents and the tools. Every configuration problem (no key, no dotnet, a bad agent.yaml) is found here,
// before a run starts, and reaches the person as a clear message with nothing changed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { ConfigurationError } from '../core/errors';
import { checkSandbox, setSandboxMode } from '../core/platform/sandbox';
import { createModel } from './provider-model';
import type { ModelSettingsOptions } from './provider-model';
import { mcpServersFromSettings } from '../core/mcp/config';
import { McpManager } from '../core/mcp/manager';
import { assembleRuntime, checkDotnet as checkDotnetWith } from '../core/runtime';
import type { ToolRegistry } from '../core/tools/registry';
import type { RunOrchestrator } from '../core/workflow/orchestrator';
import type { PhaseRuntimeParts } from '../core/workflow/parallel-phases';
import type { CodeChecker } from '../core/host';
import { NodeProcessRunner } from '../host/node/process-runner';
import { FallbackNotice, createVscodeHost } from '../host/vscode/index';
import type { VscodeHost } from '../host/vscode/index';
import { agentsFolderPath } from './settings';
import { askToolApprovalInEditor } from './tool-approval';
import { openPhaseRuntimes } from './phase-runtimes';
import { version } from '../../package.json';

/** The settings, keys and logger the model client is built from (provider-model.ts), and where the run works. */
export interface RuntimeOptions extends ModelSettingsOptions {
  workspaceRoot: string;
  /** The person trusted the workspace (VS Code's workspace trust and Ironbees' confirmation): workspace-trust.ts. */
  trusted: boolean;
  folder?: vscode.WorkspaceFolder;
  /** False for a folder no language server watches (a worktree): symbols and checks come from the engine. */
  languageServer?: boolean;
  extensionPath: string;
  /** Says "no C# language server, the engine answers" to the person (the extension: once per install, not per window). */
  showEngineNotice?: (message: string) => void;
  /** "ironbees.parallel" > 1: builds the runtime of each phase that runs in a worktree of its own (phase-runtimes.ts). */
  phaseRuntime?: (workspace: string, parts?: PhaseRuntimeParts) => Promise<ExtensionRuntime>;
  /** A phase's runtime: nobody is asked about its tools (a phase's run has no person of its own, as in the CLI). */
  phase?: boolean;
  /** A phase's compile check, answered by its run's engine (core/workflow/phase-code-check.ts). */
  codeCheck?: CodeChecker;
}

export interface ExtensionRuntime {
  host: VscodeHost;
  orchestrator: RunOrchestrator;
  /** Built-in tools plus those of the MCP servers in the settings and `.ironbees/mcp.json`. */
  tools: ToolRegistry;
  /** Stops the MCP servers this runtime started (settings changed, or the window is closing). */
  close(): Promise<void>;
}

export { NO_API_KEY_MESSAGE, createModel } from './provider-model';

/**
 * `dotnet --version` in the workspace, directly (a task for this would flash a terminal for nothing);
 * a global.json pinning an SDK that is not installed is named with both versions.
 */
export function checkDotnet(workspaceRoot: string): Promise<string> {
  return checkDotnetWith(new NodeProcessRunner(), workspaceRoot);
}

/** The "ironbees.agentsFolder" setting's folder, which must exist when set. */
function agentOverridesDir(options: RuntimeOptions): string | undefined {
  const custom = agentsFolderPath(options.settings, options.workspaceRoot);
  if (custom && !fs.existsSync(custom)) {
    throw new ConfigurationError(`The agents folder ${custom} (setting "ironbees.agentsFolder") does not exist.`, {
      setting: 'agentsFolder',
    });
  }
  return custom ?? undefined;
}

export async function createExtensionRuntime(options: RuntimeOptions): Promise<ExtensionRuntime> {
  const model = createModel(options);
  // "ironbees.sandbox": `on` without a sandbox stops here (a configuration error); `auto` without one says so once.
  setSandboxMode(options.settings.sandbox);
  checkSandbox((message) => options.logger.warn(message));
  const fallbackNotice = options.showEngineNotice ? new FallbackNotice(options.showEngineNotice) : undefined;
  const runtime = await assembleRuntime({
    workspaceRoot: options.workspaceRoot,
    trusted: options.trusted,
    logger: options.logger,
    model,
    dotnetRunner: new NodeProcessRunner(),
    createHost: () => {
      const host = createVscodeHost(options.workspaceRoot, {
        logger: options.logger,
        folder: options.folder,
        ...(options.languageServer === false ? { languageServer: false } : {}),
        ...(fallbackNotice ? { fallbackNotice } : {}),
      });
      return options.codeCheck ? { ...host, codeCheck: options.codeCheck } : host;
    },
    // Settings servers plus `.ironbees/mcp.json`; a bad entry in the settings stops here, before a run.
    mcp: (_host, trusted) =>
      new McpManager({
        servers: mcpServersFromSettings(options.settings.mcpServers, 'setting "ironbees.mcpServers"', options.workspaceRoot),
        workspaceRoot: options.workspaceRoot,
        readWorkspaceConfig: trusted,
        logger: options.logger,
      }),
    bundledAgentsDir: path.join(options.extensionPath, 'agents'),
    agentOverridesDir: () => agentOverridesDir(options),
    ...(options.phase ? {} : { askToolApproval: askToolApprovalInEditor }),
    ...(options.phaseRuntime ? { phaseRuntimes: openPhaseRuntimes(options.phaseRuntime, options.logger) } : {}),
    telemetry: { otlpEndpoint: options.settings.otlpEndpoint, env: process.env, serviceVersion: version },
  });
  const close = async (): Promise<void> => {
    await runtime.flushTelemetry();
    await runtime.closeMcp();
  };
  return { host: runtime.host, orchestrator: runtime.orchestrator, tools: runtime.tools, close };
}
