// Fakes for driving runCli without a model, dotnet or the statechart: a scripted orchestrator, a
// file-system Host over a temp folder, and in-memory streams.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Host, HostFileSystem } from '../../../src/core/host';
import type { ApprovalDecision, CodingState, WorkflowContext } from '../../../src/core/model';
import type { Orchestrator } from '../../../src/core/trace';
import type { CliIo } from '../../../src/cli/app';

export type Script = (run: FakeOrchestrator, signal: AbortSignal) => AsyncGenerator<CodingState>;

/** Plays a script of states; at a gate the script awaits `decision()`, fed by approve(). */
export class FakeOrchestrator implements Orchestrator {
  readonly decisions: ApprovalDecision[] = [];
  request: string | null = null;
  context: WorkflowContext | null = null;
  resumedId: string | null = null;
  private pending: ApprovalDecision[] = [];
  private waiter: ((decision: ApprovalDecision) => void) | null = null;

  constructor(private readonly script: Script) {}

  execute(request: string, context: WorkflowContext, signal?: AbortSignal): AsyncIterable<CodingState> {
    this.request = request;
    this.context = context;
    return this.play(signal ?? new AbortController().signal);
  }

  resume(stateId: string, signal?: AbortSignal): AsyncIterable<CodingState> {
    this.resumedId = stateId;
    return this.play(signal ?? new AbortController().signal);
  }

  async approve(_stateId: string, decision: ApprovalDecision): Promise<void> {
    this.decisions.push(decision);
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter(decision);
    else this.pending.push(decision);
  }

  decision(): Promise<ApprovalDecision> {
    const next = this.pending.shift();
    if (next) return Promise.resolve(next);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  async cancel(): Promise<void> {}

  async getState(stateId: string): Promise<CodingState> {
    throw new Error(`not scripted: ${stateId}`);
  }

  /** Like the real one: once the signal aborts, the iterable ends without a further state. */
  private async *play(signal: AbortSignal): AsyncGenerator<CodingState> {
    for await (const state of this.script(this, signal)) {
      if (signal.aborted) return;
      yield state;
    }
  }
}

/** Resolves when the signal aborts: a step that is still working when Ctrl-C arrives. */
export function working(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export interface TestIo extends CliIo {
  stdin: PassThrough;
  out(): string;
  err(): string;
  interrupt(): void;
  exits: number[];
}

export function testIo(answers: string[] | null, cwd: string): TestIo {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  if (answers) stdin.end(answers.map((a) => `${a}\n`).join(''));
  const handlers = new Set<() => void>();
  const exits: number[] = [];
  return {
    stdin,
    stdout,
    stderr,
    env: { NO_COLOR: '1' },
    cwd,
    onInterrupt: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    exitNow: (code) => exits.push(code),
    out: () => out,
    err: () => err,
    interrupt: () => [...handlers].forEach((h) => h()),
    exits,
  };
}

class NodeFs implements HostFileSystem {
  async readFile(absPath: string): Promise<Uint8Array | null> {
    return fs.readFile(absPath).catch(() => null);
  }
  async writeFile(absPath: string, data: Uint8Array | string): Promise<void> {
    await fs.mkdir(path.dirname(absPath), { recursive: true });
    await fs.writeFile(absPath, data);
  }
  async appendFile(absPath: string, text: string): Promise<void> {
    await fs.mkdir(path.dirname(absPath), { recursive: true });
    await fs.appendFile(absPath, text);
  }
  async deleteFile(absPath: string): Promise<void> {
    await fs.rm(absPath, { force: true });
  }
  async exists(absPath: string): Promise<boolean> {
    return fs.stat(absPath).then(
      () => true,
      () => false,
    );
  }
  async listFiles(absDir: string): Promise<string[]> {
    const entries = await fs.readdir(absDir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(absDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }
}

export function fsHost(workspaceRoot: string): Host {
  const quiet = (): void => undefined;
  return {
    workspaceRoot,
    fs: new NodeFs(),
    process: {
      run: async () => {
        throw new Error('no processes in unit tests');
      },
    },
    symbols: { findSymbols: async () => [], findReferences: async () => [] },
    clock: { now: () => Date.now() },
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  };
}
