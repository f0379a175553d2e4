// The runtimes that drive a folder's runs: built on first use (not cached when the build fails, so
// fixing the cause and retrying works), replaced when settings or the key change, and the replaced
// ones closed (their MCP servers stopped) once no run uses them. A run in another folder (a git
// worktree) gets a runtime of its own.

import type * as vscode from 'vscode';
import type { Logger } from '../core/host';
import type { ModelClient } from '../core/llm/port';
import { errorMessage } from '../core/errors';
import type { ApiKeyStore } from './secrets';
import type { IronbeesSettings } from './settings';
import { ProviderApiKeyStore } from './provider-keys';
import type { ExtensionRuntime } from './runtime';
import { placement } from './runtime-placement';
import type { PhaseRuntimeParts } from '../core/workflow/parallel-phases';

/** What the run controller of a folder is made with: everything a runtime is built from. */
export interface RunControllerDeps {
  folder: vscode.WorkspaceFolder;
  extensionPath: string;
  logger: Logger;
  apiKeys: ApiKeyStore;
  settings: () => IronbeesSettings;
  /**
   * Whether the person trusts the workspace's own agents and MCP servers (workspace-trust.ts: VS
   * Code's workspace trust and Ironbees' confirmation); absent, they are not used.
   */
  trusted?: () => Promise<boolean>;
  /** Tests drive runs with a scripted model. */
  model?: ModelClient;
  /** The "no C# language server" notice (runtime.ts). */
  showEngineNotice?: (message: string) => void;
}

export class RunRuntimes {
  private runtime: Promise<ExtensionRuntime> | null = null;
  /** Runtimes replaced after a settings change, closed once no run uses them. */
  private retired: Array<Promise<ExtensionRuntime>> = [];

  /** `live` says whether a run is followed, which keeps the retired runtimes open. */
  constructor(
    private readonly deps: RunControllerDeps,
    private readonly live: () => boolean,
  ) {}

  /** The folder's runtime, built on first use. */
  get(): Promise<ExtensionRuntime> {
    if (!this.runtime) {
      const building = this.build();
      this.runtime = building;
      // A failed build (no key, no dotnet) is not cached: fixing the cause and retrying must work.
      building.catch(() => {
        if (this.runtime === building) this.runtime = null;
      });
    }
    return this.runtime;
  }

  /** Settings or the key changed: the next run builds a fresh runtime (a live run keeps its own). */
  invalidate(): void {
    if (this.runtime) this.retired.push(this.runtime);
    this.runtime = null;
    void this.closeRetired();
  }

  /** Stops the MCP servers of replaced runtimes; a live run keeps its runtime until it ends. */
  async closeRetired(): Promise<void> {
    if (this.live()) return;
    const retired = this.retired;
    this.retired = [];
    for (const runtime of retired) {
      await runtime
        .then((built) => built.close())
        .catch((error: unknown) => this.deps.logger.warn(`Stopping MCP servers: ${errorMessage(error)}`));
    }
  }

  /**
   * For the folder's runs, or for a run in another folder (a worktree: no language server watches it).
   * With "ironbees.parallel" > 1 the folder's runtime builds one of its own for each phase it runs in
   * a worktree (`phase`).
   */
  async build(elsewhere?: string, phase = false, parts: PhaseRuntimeParts = {}): Promise<ExtensionRuntime> {
    // Loaded on first use: the core, the SDK and xstate are most of the bundle, and activation stays fast.
    const { createExtensionRuntime } = await import('./heavy.js');
    // Trust is the person's folder's: a worktree is a copy of its last commit.
    const trusted = (await this.deps.trusted?.()) ?? false;
    const settings = this.deps.settings();
    return createExtensionRuntime({
      ...placement(settings, elsewhere, phase, (workspace, given) => this.build(workspace, true, given)),
      ...(parts.codeCheck ? { codeCheck: parts.codeCheck } : {}),
      workspaceRoot: elsewhere ?? this.deps.folder.uri.fsPath,
      trusted,
      folder: this.deps.folder,
      settings,
      apiKey: await this.deps.apiKeys.get(),
      ...(this.deps.apiKeys instanceof ProviderApiKeyStore ? { openaiApiKey: await this.deps.apiKeys.keyFor('openai') } : {}),
      extensionPath: this.deps.extensionPath,
      logger: this.deps.logger,
      ...(this.deps.model ? { model: this.deps.model } : {}),
      ...(this.deps.showEngineNotice ? { showEngineNotice: this.deps.showEngineNotice } : {}),
    });
  }
}
