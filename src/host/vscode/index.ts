// The Host inside VS Code: the language server's diagnostics and symbols (when a C# extension is
// installed), build and tests as VS Code tasks, the Node file system (see fs.ts for why), and the
// "Ironbees" log. Without a C# extension it behaves like the Node host: symbols and the in-memory
// check from Ironbees' own C# engine (Roslyn; the text index when it cannot load), build-only
// validation; and it says so once per window: a log line, and a notification so the person learns
// why diagnostics come from the build and how to get better ones. The engine starts on the first
// symbol question (or check), not with the host, and stays warm for the window's later runs;
// IRONBEES_ROSLYN=0 turns it off (the VS Code test suites that do not need it do).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CodeChecker, Host, Logger } from '../../core/host';
import { EngineCodeChecker } from '../../core/csharp/engine/code-checker';
import { EngineSymbolProvider } from '../../core/csharp/engine/engine-symbols';
import { sharedEngine } from '../../core/csharp/engine/roslyn-engine';
import { CSharpTextIndex } from '../../core/csharp/text-index';
import { projectsFailingToBuild, restoresSettled } from '../../core/dotnet/build-tracker';
import { findBuildTarget } from '../../core/dotnet/target';
import { findCSharpExtension } from './csharp-extension';
import { VscodeDiagnostics } from './diagnostics';
import { VscodeFileSystem } from './fs';
import { VscodeSymbolProvider } from './symbols';
import { TaskProcessRunner } from './task-runner';

export interface VscodeHostOptions {
  logger: Logger;
  folder?: vscode.WorkspaceFolder;
  /** Tests force the fallback (or the language server) regardless of what is installed. */
  languageServer?: boolean;
  /** Who tells the person about the fallback; tests pass their own to count what it says. */
  fallbackNotice?: FallbackNotice;
}

export interface VscodeHost extends Host {
  readonly process: TaskProcessRunner;
  /** The language server's (through VS Code), or without a C# extension the engine's. */
  readonly symbols: VscodeSymbolProvider | EngineSymbolProvider;
  /** True when a C# language server answers diagnostics and symbols. */
  readonly languageServer: boolean;
}

export const FALLBACK_LOG =
  "No C# extension is installed: symbols come from Ironbees' C# engine (Roslyn; a text index when it cannot load) and validation relies on `dotnet build` (as in the CLI). " +
  'Install the C# extension (ms-dotnettools.csharp) for language-server diagnostics and symbols.';
export const FALLBACK_MESSAGE =
  'Ironbees: no C# language server found; using its own C# engine (Roslyn) and dotnet build for diagnostics. ' +
  'Install the C# extension for language-server diagnostics and symbols.';

/** Says "no C# language server" once: a host is made per run, the notice is for the window. */
export class FallbackNotice {
  private announced = false;

  constructor(private readonly show: (message: string) => void = (message) => void vscode.window.showInformationMessage(message)) {}

  announce(logger: Logger): void {
    if (this.announced) return;
    this.announced = true;
    logger.info(FALLBACK_LOG);
    this.show(FALLBACK_MESSAGE);
  }
}

// Module state lives as long as the extension host, which is one per window.
const windowNotice = new FallbackNotice();

export function createVscodeHost(workspaceRoot: string, options: VscodeHostOptions): VscodeHost {
  const root = path.resolve(workspaceRoot);
  const csharp = options.languageServer ?? findCSharpExtension() !== undefined;
  if (!csharp) (options.fallbackNotice ?? windowNotice).announce(options.logger);
  const diagnostics = csharp ? new VscodeDiagnostics(root) : undefined;
  // Only workspace sources matter; the run's own files (.ironbees/) are written after every step.
  const runFiles = `${path.sep}.ironbees${path.sep}`;
  const fs = new VscodeFileSystem((absPath) => {
    if (!absPath.includes(runFiles)) diagnostics?.rememberBefore(absPath);
  });
  const engine = csharp ? undefined : engineParts(root, fs, options.logger);
  return {
    workspaceRoot: root,
    fs,
    process: new TaskProcessRunner({ folder: options.folder, logger: options.logger }),
    symbols: engine?.symbols ?? new VscodeSymbolProvider(root, fs, csharp, options.logger),
    ...(diagnostics ? { diagnostics } : {}),
    ...(engine ? { codeCheck: engine.codeCheck } : {}),
    clock: { now: () => Date.now() },
    logger: options.logger,
    languageServer: csharp,
  };
}

/**
 * Without a language server: the window's engine for this folder (shared with its later runs),
 * opening the workspace's solution; nothing starts until the first question.
 */
function engineParts(root: string, fs: VscodeFileSystem, logger: Logger): { symbols: EngineSymbolProvider; codeCheck: CodeChecker } {
  const engine = sharedEngine({
    workspaceRoot: root,
    target: async () => (await findBuildTarget({ workspaceRoot: root, fs })).absPath,
    restoresSettled: () => restoresSettled(root),
    logger,
  });
  return {
    symbols: new EngineSymbolProvider(engine, new CSharpTextIndex(fs, root), fs, root, logger),
    codeCheck: new EngineCodeChecker(engine, { projectsFailingToBuild: () => projectsFailingToBuild(root) }),
  };
}

export { TaskProcessRunner, TASK_TYPE, TASK_SOURCE } from './task-runner';
export { VscodeDiagnostics } from './diagnostics';
export { VscodeSymbolProvider } from './symbols';
