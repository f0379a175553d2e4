// Runs commands for the Node host (CLI, tests, benches): no shell, bounded output, and a time limit
// or an abort that takes the whole process tree down with it. `dotnet build` is a tree (the CLI, MSBuild
// nodes, the compiler server, Exec'd tools, test hosts), and killing only the top leaves the rest
// running, holding files and CPU.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import treeKill from 'tree-kill';
import { childEnvironment } from '../../core/platform/child-env';
import { resolveCommand } from '../../core/platform/command-path';
import { sandboxedCommand } from '../../core/platform/sandbox';
import type { ProcessRunner, RunOptions, RunResult } from '../../core/host';

/** Output kept per stream; the rest is dropped from the front so the end (where errors sum up) survives. */
export const DEFAULT_MAX_KEPT_OUTPUT = 2 * 1024 * 1024;

/** After the process exits, how long to wait for its pipes to close (a grandchild may still hold them). */
const PIPE_DRAIN_GRACE_MS = 500;

/** tree-kill walks the tree with `ps`; if that stalls, the group is killed anyway. */
const TREE_WALK_PATIENCE_MS = 2000;

/** The .NET CLI asks no questions, prints no banners and sends nothing home. */
export const QUIET_DOTNET_ENV: Readonly<Record<string, string>> = Object.freeze({
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_NOLOGO: '1',
  DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
  DOTNET_CLI_WORKLOAD_UPDATE_NOTIFY_DISABLE: '1',
  DOTNET_GENERATE_ASPNET_CERTIFICATE: 'false',
});

export interface NodeProcessRunnerOptions {
  maxKeptOutput?: number;
  /**
   * When a command is killed (time limit or abort), also kill what earlier commands left running in
   * their process groups. MSBuild server and reused nodes outlive the `dotnet build` that started them
   * and run the next build's tasks, so a hung `Exec` lives in *their* group, not in the killed
   * command's tree. Default true; POSIX only (Windows has no process groups).
   */
  reapLingeringGroupsOnKill?: boolean;
}

/**
 * Process groups of finished commands that still had members when their leader exited (build servers).
 * Shared by every runner in the process: the servers one host's command started serve the next host's.
 */
const lingeringGroups = new Set<number>();

/** Keeps the last `limit` characters of a stream. */
class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  private dropped = false;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > this.limit * 2) this.compact();
  }

  text(): string {
    this.compact();
    const body = this.chunks.join('');
    return this.dropped ? `[… earlier output dropped …]\n${body}` : body;
  }

  private compact(): void {
    if (this.length <= this.limit) return;
    const joined = this.chunks.join('');
    const kept = joined.slice(joined.length - this.limit);
    this.chunks = [kept];
    this.length = kept.length;
    this.dropped = true;
  }
}

export class NodeProcessRunner implements ProcessRunner {
  /** Commands asking for the sandbox (RunOptions.sandbox) start inside it when one is active. */
  readonly sandboxes = true;
  private readonly maxKeptOutput: number;
  private readonly reapLingeringGroups: boolean;
  /** The groups this runner's own commands left running (a subset of the process-wide lingeringGroups). */
  private readonly ownGroups = new Set<number>();

  constructor(options: NodeProcessRunnerOptions = {}) {
    this.maxKeptOutput = options.maxKeptOutput ?? DEFAULT_MAX_KEPT_OUTPUT;
    this.reapLingeringGroups = (options.reapLingeringGroupsOnKill ?? true) && process.platform !== 'win32';
  }

  async run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    if (!options.sandbox) return this.start(command, args, options);
    // Resolved here, outside the sandbox: bwrap is handed the absolute path, never a name it would look up.
    const program = resolveCommand(command, { env: childEnvironment({ set: { ...QUIET_DOTNET_ENV, ...options.env } }) });
    const sandboxed = sandboxedCommand(program, args, {
      ...options.sandbox,
      readable: [path.dirname(program)],
    });
    const result = await this.start(sandboxed.command, sandboxed.args, options);
    // bwrap could not find the command: the same error as starting it directly.
    if (
      sandboxed.command !== program &&
      result.exitCode === 1 &&
      result.stderr.startsWith(`bwrap: execvp ${program}: No such file or directory`)
    ) {
      throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
    }
    return result;
  }

  private start(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    this.forgetEmptyGroups();
    const startedAt = Date.now();
    return new Promise<RunResult>((resolve, reject) => {
      if (options.signal?.aborted) {
        resolve({ exitCode: null, stdout: '', stderr: '', durationMs: 0, timedOut: false, cancelled: true });
        return;
      }
      let child: ChildProcess;
      try {
        // Without the model credentials: what runs here (tests, MSBuild targets) is not Ironbees' code.
        const env = childEnvironment({ set: { ...QUIET_DOTNET_ENV, ...options.env } });
        // By its absolute path on PATH: never a program of the same name in the workspace (command-path.ts).
        child = spawn(resolveCommand(command, { env }), [...args], {
          cwd: options.cwd,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group, so the whole group can be killed even after children re-parent.
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (error) {
        reject(error);
        return;
      }

      const stdout = new TailBuffer(this.maxKeptOutput);
      const stderr = new TailBuffer(this.maxKeptOutput);
      let timedOut = false;
      let cancelled = false;
      let exitCode: number | null = null;
      let settled = false;
      let drainTimer: NodeJS.Timeout | undefined;

      const collect = (stream: 'stdout' | 'stderr', buffer: TailBuffer) => (data: Buffer | string) => {
        const chunk = data.toString();
        buffer.push(chunk);
        options.onOutput?.(chunk, stream);
      };
      child.stdout?.setEncoding('utf8').on('data', collect('stdout', stdout));
      child.stderr?.setEncoding('utf8').on('data', collect('stderr', stderr));

      const kill = (): void => {
        if (child.pid === undefined) return;
        this.killTree(child.pid);
        if (this.reapLingeringGroups) this.killLingeringGroups();
      };
      const timer = setTimeout(
        () => {
          timedOut = true;
          kill();
        },
        Math.max(0, options.timeoutMs),
      );
      const onAbort = (): void => {
        cancelled = true;
        kill();
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });

      const finish = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(drainTimer);
        options.signal?.removeEventListener('abort', onAbort);
        // Pipes held open by a lingering grandchild must not keep this process alive.
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (child.pid !== undefined) this.rememberIfLingering(child.pid);
        resolve({
          exitCode: timedOut || cancelled ? null : exitCode,
          stdout: stdout.text(),
          stderr: stderr.text(),
          durationMs: Date.now() - startedAt,
          timedOut,
          cancelled: cancelled && !timedOut,
        });
      };

      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          // It never started (ENOENT, EACCES): the caller says what that means for its command.
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          reject(error);
          return;
        }
        finish();
      });
      child.once('exit', (code) => {
        exitCode = code;
        // 'close' normally follows at once; if a grandchild inherited the pipes it may never come.
        drainTimer = setTimeout(finish, PIPE_DRAIN_GRACE_MS);
      });
      child.once('close', (code) => {
        if (exitCode === null) exitCode = code;
        finish();
      });
    });
  }

  /** Kills the tree (by parent links) and the process group (for children that re-parented to init). */
  private killTree(pid: number): void {
    if (process.platform === 'win32') {
      treeKill(pid, 'SIGKILL', () => undefined);
      return;
    }
    // The tree walk first (it follows parent links, so the root must still be alive), then the group.
    let groupKilled = false;
    const killTheGroup = (): void => {
      if (groupKilled) return;
      groupKilled = true;
      killGroup(pid);
    };
    treeKill(pid, 'SIGKILL', killTheGroup);
    setTimeout(killTheGroup, TREE_WALK_PATIENCE_MS).unref();
  }

  private rememberIfLingering(pid: number): void {
    if (!this.reapLingeringGroups) return;
    if (!groupHasMembers(pid)) return;
    lingeringGroups.add(pid);
    this.ownGroups.add(pid);
  }

  /**
   * Stops what this runner's finished commands left running (build servers and nodes of its workspace),
   * at once, with a signal per group; another runner's (another phase's worktree) are left alone.
   * Returns how many groups were stopped; 0 where commands get no group (Windows).
   */
  stopLeftRunning(): number {
    for (const pgid of this.ownGroups) lingeringGroups.delete(pgid);
    return stopGroups(this.ownGroups);
  }

  private killLingeringGroups(): void {
    for (const pgid of lingeringGroups) this.ownGroups.delete(pgid);
    stopGroups(lingeringGroups);
  }

  private forgetEmptyGroups(): void {
    for (const pgid of lingeringGroups) {
      if (!groupHasMembers(pgid)) lingeringGroups.delete(pgid);
    }
    for (const pgid of this.ownGroups) if (!lingeringGroups.has(pgid)) this.ownGroups.delete(pgid);
  }
}

/**
 * Stops what this process's commands left running (MSBuild server and nodes, a compiler server, a test
 * host): every process group a finished command left members in. They are ours alone (each command got
 * its own group, and a group id is not reused while it has members), so no one else's build is touched,
 * and it takes a signal per group instead of a `dotnet build-server shutdown` the exit would wait for.
 * Returns how many groups were stopped. POSIX only (on Windows commands get no group: nothing is kept).
 */
export function stopLingeringProcessGroups(): number {
  return stopGroups(lingeringGroups);
}

/** A signal to every group of `groups` that still has members, all of them then forgotten; how many got one. */
function stopGroups(groups: Set<number>): number {
  let stopped = 0;
  for (const pgid of groups) {
    // A group id cannot be reused while it still has members, so a live group is still ours.
    if (groupHasMembers(pgid)) {
      killGroup(pgid);
      stopped += 1;
    }
  }
  groups.clear();
  return stopped;
}

function groupHasMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
