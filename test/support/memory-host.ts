// A Host held in memory, for fast unit tests of the agents: files in a Map, no processes, no
// language server, a clock that advances only when told (so durations are exact).

import * as path from 'node:path';
import type { Host, HostFileSystem, Logger, RunResult } from '../../src/core/host';

const SKIPPED = new Set(['bin', 'obj', '.git', '.ironbees', 'node_modules', '.vs']);

export interface MemoryHost extends Host {
  /** Workspace-relative path → text. */
  readonly files: Map<string, string>;
  readonly logs: Array<{ level: keyof Logger; message: string }>;
  /** Moves the clock forward. */
  tick(ms: number): void;
}

export function createMemoryHost(initial: Record<string, string> = {}, workspaceRoot = path.resolve('/memory-workspace')): MemoryHost {
  const files = new Map(Object.entries(initial));
  const logs: MemoryHost['logs'] = [];
  let now = Date.UTC(2025, 0, 1);
  const rel = (abs: string): string => path.relative(workspaceRoot, abs).split(path.sep).join('/');

  const fs: HostFileSystem = {
    async readFile(abs) {
      const text = files.get(rel(abs));
      return text === undefined ? null : new TextEncoder().encode(text);
    },
    async writeFile(abs, data) {
      files.set(rel(abs), typeof data === 'string' ? data : new TextDecoder().decode(data));
    },
    async appendFile(abs, text) {
      files.set(rel(abs), (files.get(rel(abs)) ?? '') + text);
    },
    async deleteFile(abs) {
      files.delete(rel(abs));
    },
    async exists(abs) {
      const key = rel(abs);
      if (key === '' || files.has(key)) return true;
      return [...files.keys()].some((file) => file.startsWith(`${key}/`));
    },
    async listFiles(absDir, options) {
      const dir = rel(absDir);
      const prefix = dir === '' ? '' : `${dir}/`;
      const found = [...files.keys()]
        .filter((file) => file.startsWith(prefix))
        .map((file) => file.slice(prefix.length))
        .filter(
          (file) =>
            !file
              .split('/')
              .slice(0, -1)
              .some((segment) => SKIPPED.has(segment.toLowerCase())),
        )
        .sort();
      return found.slice(0, options?.maxFiles ?? found.length);
    },
  };

  const logger: Logger = {
    debug: (message) => logs.push({ level: 'debug', message }),
    info: (message) => logs.push({ level: 'info', message }),
    warn: (message) => logs.push({ level: 'warn', message }),
    error: (message) => logs.push({ level: 'error', message }),
  };

  return {
    workspaceRoot,
    files,
    logs,
    fs,
    process: {
      async run(command): Promise<RunResult> {
        throw new Error(`memory host: no processes (asked to run ${command})`);
      },
    },
    symbols: {
      findSymbols: async () => [],
      findReferences: async () => [],
    },
    clock: { now: () => now },
    logger,
    tick: (ms) => {
      now += ms;
    },
  };
}
