// An in-memory Host for tool tests: files live in a Map, nothing touches the disk, and the
// workspace root is a path that does not exist (so the containment check's realpath walk is real).

import * as os from 'node:os';
import * as path from 'node:path';
import type { Host, HostFileSystem, Logger, ProcessRunner, SymbolProvider } from '../../../src/core/host';
import { CSharpTextIndex } from '../../../src/core/csharp/text-index';
import type { ToolContext, ToolOutcome } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';

export const MEMORY_ROOT = path.join(os.tmpdir(), 'ironbees-memory-workspace-that-does-not-exist');
const SKIPPED = new Set(['bin', 'obj', '.git', '.ironbees', 'node_modules', '.vs']);

export class MemoryFileSystem implements HostFileSystem {
  readonly files = new Map<string, Uint8Array>();
  reads = 0;
  writes = 0;

  constructor(private readonly root: string = MEMORY_ROOT) {}

  /** Seeds a file by workspace-relative path. */
  put(rel: string, content: string | Uint8Array): this {
    this.files.set(path.join(this.root, rel), typeof content === 'string' ? new TextEncoder().encode(content) : content);
    return this;
  }

  text(rel: string): string | undefined {
    const bytes = this.files.get(path.join(this.root, rel));
    return bytes === undefined ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }

  async readFile(absPath: string): Promise<Uint8Array | null> {
    this.reads++;
    return this.files.get(absPath) ?? null;
  }

  async writeFile(absPath: string, data: Uint8Array | string): Promise<void> {
    this.writes++;
    this.files.set(absPath, typeof data === 'string' ? new TextEncoder().encode(data) : data);
  }

  async appendFile(absPath: string, text: string): Promise<void> {
    this.writes++;
    const before = this.files.get(absPath) ?? new Uint8Array();
    this.files.set(absPath, new Uint8Array([...before, ...new TextEncoder().encode(text)]));
  }

  async deleteFile(absPath: string): Promise<void> {
    this.writes++;
    this.files.delete(absPath);
  }

  async exists(absPath: string): Promise<boolean> {
    const prefix = absPath.endsWith(path.sep) ? absPath : absPath + path.sep;
    return this.files.has(absPath) || [...this.files.keys()].some((f) => f.startsWith(prefix));
  }

  async listFiles(absDir: string, options: { maxFiles?: number } = {}): Promise<string[]> {
    const prefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    const found = [...this.files.keys()]
      .filter((f) => f.startsWith(prefix))
      .map((f) => f.slice(prefix.length).split(path.sep).join('/'))
      .filter(
        (rel) =>
          !rel
            .split('/')
            .slice(0, -1)
            .some((s) => SKIPPED.has(s.toLowerCase())),
      )
      .sort();
    return found.slice(0, options.maxFiles ?? 10_000);
  }
}

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  debug(message: string): void {
    this.lines.push(`debug: ${message}`);
  }
  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}

const noProcesses: ProcessRunner = {
  run: async () => {
    throw new Error('tool tests never run processes');
  },
};

export function memoryHost(
  files: Record<string, string> = {},
  options: { symbols?: SymbolProvider; root?: string } = {},
): Host & { fs: MemoryFileSystem; logger: MemoryLogger } {
  const root = options.root ?? MEMORY_ROOT;
  const fs = new MemoryFileSystem(root);
  for (const [rel, content] of Object.entries(files)) fs.put(rel, content);
  return {
    workspaceRoot: root,
    fs,
    process: noProcesses,
    symbols: options.symbols ?? new CSharpTextIndex(fs, root),
    clock: { now: () => 0 },
    logger: new MemoryLogger(),
  };
}

export function toolContext(host: Host, overlay: StagedOverlay = new StagedOverlay(host), signal?: AbortSignal): ToolContext {
  return { host, overlay, signal };
}

/** An outcome without the adapter's additions (observation, kind), for comparing the text a tool produced. */
export function bare(outcome: ToolOutcome): ToolOutcome {
  if (outcome.ok) return { ok: true, content: outcome.content };
  return { ok: false, error: outcome.error };
}
