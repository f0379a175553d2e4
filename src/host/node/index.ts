// The Host for the CLI, `ironbees mcp` and tests: the real file system, child processes for dotnet,
// and C# symbols from the Roslyn engine (src/core/csharp/engine), with the text index as its
// fallback. There is no language server here, so no `diagnostics`: the validator relies on the
// build; the engine's in-memory check (`codeCheck`) runs before review.

import * as path from 'node:path';
import type { Host, Logger } from '../../core/host';
import { EngineCodeChecker } from '../../core/csharp/engine/code-checker';
import { EngineSymbolProvider } from '../../core/csharp/engine/engine-symbols';
import { sharedEngine } from '../../core/csharp/engine/roslyn-engine';
import { CSharpTextIndex } from '../../core/csharp/text-index';
import { projectsFailingToBuild, restoresSettled } from '../../core/dotnet/build-tracker';
import { findBuildTarget } from '../../core/dotnet/target';
import { NodeFileSystem } from './fs';
import { StderrLogger } from './logger';
import { NodeProcessRunner } from './process-runner';

export interface NodeHostOptions {
  logger?: Logger;
  /** The solution or project the C# engine opens (workspace-relative); found like the build's target when absent. */
  engineTarget?: string;
  /**
   * Start loading the solution now, not at the first question: a run (or the MCP server) will ask
   * soon, and the load (seconds to a minute on a busy machine) then overlaps the planner's first
   * model call instead of adding to the coder's first symbol question.
   */
  warmEngine?: boolean;
}

export function createNodeHost(workspaceRoot: string, options: NodeHostOptions = {}): Host {
  const root = path.resolve(workspaceRoot);
  const fs = new NodeFileSystem();
  const logger = options.logger ?? new StderrLogger();
  // Shared per workspace root: nothing starts until the first question, and later hosts of the
  // same workspace in this process (the extension's next run, the MCP server) find it warm.
  const engine = sharedEngine({
    workspaceRoot: root,
    ...(options.engineTarget ? { targetKey: options.engineTarget } : {}),
    target: async () => (await findBuildTarget({ workspaceRoot: root, fs }, options.engineTarget)).absPath,
    restoresSettled: () => restoresSettled(root),
    logger,
  });
  if (options.warmEngine) engine.warmUp();
  return {
    workspaceRoot: root,
    fs,
    process: new NodeProcessRunner(),
    symbols: new EngineSymbolProvider(engine, new CSharpTextIndex(fs, root), fs, root, logger),
    codeCheck: new EngineCodeChecker(engine, { projectsFailingToBuild: () => projectsFailingToBuild(root) }),
    clock: { now: () => Date.now() },
    logger,
  };
}

export { NodeFileSystem } from './fs';
export { stopLingeringProcessGroups } from './process-runner';
export { StderrLogger } from './logger';
export type { LogLevel, StderrLoggerOptions } from './logger';
