// One running engine process and the newline-delimited JSON-RPC spoken with it (see
// roslyn/Ironbees.Roslyn/Server.cs for the protocol and why it is not MCP). Every request has a time
// limit; an engine that misses it is killed (with its MSBuild build host), because a hung engine
// cannot be trusted with the next question either. The process dies with us: its stdin is our pipe,
// and it exits when that closes, even mid-load.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import treeKill from 'tree-kill';
import { resolveCommand } from '../../platform/command-path';
import { sandboxedCommand } from '../../platform/sandbox';
import { engineEnv } from './engine-env';
import { EngineRequestError, EngineUnavailableError } from './errors';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface EngineProcessOptions {
  /** The published Ironbees.Roslyn.dll. */
  enginePath: string;
  /** Extra variables for the child (test hooks such as IRONBEES_ROSLYN_FAULT). */
  env?: Record<string, string>;
  cwd: string;
}

const STDERR_KEPT = 4000;
const live = new Set<EngineProcess>();

// A last resort for exits that skip disposal (process.exit in the CLI): no engine outlives us.
process.once('exit', () => {
  for (const engine of live) engine.killNow();
});

export class EngineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private ended: EngineUnavailableError | null = null;

  constructor(options: EngineProcessOptions) {
    const env = engineEnv(process.env, { IRONBEES_ENGINE_CLIENT: '1', ...options.env });
    // The engine's cwd is the workspace: `dotnet` by its absolute path on PATH, never a workspace's own.
    let dotnet: string;
    try {
      dotnet = resolveCommand('dotnet', { env });
    } catch (error) {
      throw new EngineUnavailableError(
        `the C# engine could not start: ${error instanceof Error ? error.message : String(error)}`,
        'missing',
      );
    }
    // Its design-time builds run the workspace's MSBuild targets: the sandbox the builds run in, with the engine's own folder readable.
    const sandboxed = sandboxedCommand(dotnet, [options.enginePath], {
      workspaceRoot: options.cwd,
      network: false,
      newSession: true,
      readable: [path.dirname(options.enginePath), path.dirname(dotnet)],
    });
    this.child = spawn(sandboxed.command, sandboxed.args, {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    live.add(this);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEPT);
    });
    // node:readline loads with the engine, not with every start (a run may have the engine off).
    process
      .getBuiltinModule('node:readline')
      .createInterface({ input: this.child.stdout })
      .on('line', (line) => this.onLine(line));
    this.child.on('error', (error) => this.end(new EngineUnavailableError(`the C# engine could not start: ${error.message}`, 'missing')));
    this.child.on('exit', (code, signal) => {
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      const said = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
      this.end(new EngineUnavailableError(`the C# engine ${how}${said ? `: ${said}` : ''}`, 'crash'));
    });
    // A closed pipe shows up as an exit; the write error itself says nothing more.
    this.child.stdin.on('error', () => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.ended === null;
  }

  request<T>(method: string, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new EngineUnavailableError(`the C# engine did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`, 'hang');
        this.stop(error);
      }, timeoutMs);
      const onAbort = (): void => {
        // The engine answers in order; a cancelled question still has to be answered before the next.
        // Its answer is dropped when it comes.
        const entry = this.pending.get(id);
        if (!entry) return;
        entry.resolve = () => undefined;
        reject(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value as T);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
        timer,
      });
      this.child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** Asks the engine to stop, then makes sure: it and its build host are gone within a grace period. */
  async dispose(graceMs = 2000): Promise<void> {
    if (!this.ended) {
      this.child.stdin.end();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.stop(new EngineUnavailableError('the C# engine was stopped', 'stopped'));
  }

  /** Kills the process tree and fails what is still waiting with `error`. */
  stop(error: EngineUnavailableError): void {
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined) {
      treeKill(this.child.pid, 'SIGKILL', () => undefined);
    }
    this.end(error);
  }

  killNow(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onLine(line: string): void {
    let message: { id?: number; result?: unknown; error?: { message?: string } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // Not a protocol line (a library wrote to stdout); answers are matched by id.
    }
    const entry = message.id === undefined ? undefined : this.pending.get(message.id);
    if (!entry || message.id === undefined) return;
    this.pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.error) entry.reject(new EngineRequestError(message.error.message ?? 'the C# engine failed this request'));
    else entry.resolve(message.result);
  }

  private end(error: EngineUnavailableError): void {
    if (!this.ended) this.ended = error;
    live.delete(this);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(this.ended);
      this.pending.delete(id);
    }
  }
}
