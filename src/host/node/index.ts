// The Host for the CLI and for tests: the real file system, child processes for dotnet, and the
// C# text index for symbols. There is no language server here, so no `diagnostics`: the
// validator relies on the build.

import * as path from 'node:path';
import type { Host, Logger } from '../../core/host';
import { CSharpTextIndex } from '../../core/tools/csharp/text-index';
import { NodeFileSystem } from './fs';
import { StderrLogger } from './logger';
import { NodeProcessRunner } from './process-runner';

export interface NodeHostOptions {
  logger?: Logger;
}

export function createNodeHost(workspaceRoot: string, options: NodeHostOptions = {}): Host {
  const root = path.resolve(workspaceRoot);
  const fs = new NodeFileSystem();
  return {
    workspaceRoot: root,
    fs,
    process: new NodeProcessRunner(),
    symbols: new CSharpTextIndex(fs, root),
    clock: { now: () => Date.now() },
    logger: options.logger ?? new StderrLogger(),
  };
}

export { NodeFileSystem } from './fs';
export { StderrLogger } from './logger';
export type { LogLevel, StderrLoggerOptions } from './logger';
