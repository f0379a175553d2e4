// The client side of the Roslyn engine for one workspace: starts it on first use, opens the run's
// solution once and keeps it warm, tells it which files changed, restarts it after a crash or a
// hang (a bounded number of times), and after that reports it unavailable with the reason, so
// callers fall back instead of waiting. Engines are shared per workspace root within the process:
// in the extension, runs after the first find the solution already loaded.

import * as path from 'node:path';
import type { Logger } from '../../host';
import { EngineProcess } from './engine-process';
import { EngineRequestError, EngineUnavailableError } from './errors';
import { engineDisabled, locateEngine } from './locate';

export interface EngineTimeouts {
  /** Starting the process and loading the solution (MSBuild evaluates every project). */
  openMs: number;
  /** One symbol question. */
  queryMs: number;
  /** One in-memory compile of the changed projects. */
  checkMs: number;
}

export const DEFAULT_ENGINE_TIMEOUTS: EngineTimeouts = { openMs: 240_000, queryMs: 60_000, checkMs: 120_000 };

export interface RoslynEngineOptions {
  workspaceRoot: string;
  /**
   * What `target` opens when it was named (e.g. --target): engines are shared per workspace and
   * target, so a run that names another solution than the one already loaded gets its own.
   */
  targetKey?: string;
  /** The solution or project to open (absolute path); rejects when there is none to choose. */
  target: () => Promise<string>;
  /** Defaults to the published engine found by locateEngine(). */
  enginePath?: string | null;
  env?: Record<string, string>;
  timeouts?: Partial<EngineTimeouts>;
  /** Starts in all, the first included (default 2: one restart after a crash or a hang). */
  maxStarts?: number;
  logger?: Logger;
  /**
   * Resolves once no restore runs in the workspace (the validator's baseline restores while the
   * engine would load): the load waits for it rather than reading projects without their packages.
   * The engine itself reloads when a restore ran after its load anyway; this only spares the load
   * that would be thrown away.
   */
  restoresSettled?: () => Promise<void>;
}

export interface EngineLoadInfo {
  projects: number;
  documents: number;
  loadMs: number;
  /**
   * Where the load went (ms): firstProjectMs (the build host started and the first project was
   * read), lastProjectMs, and per MSBuild operation the time summed over projects (evaluateMs,
   * buildMs = design-time builds, resolveMs).
   */
  phases?: Record<string, number>;
  warnings: string[];
  /** True when the solution was built from the warm-start cache of an earlier load on the same inputs (no MSBuild). */
  fromCache?: boolean;
  /** Projects the engine cannot judge after this load (packages not restored, Razor, a load error), with why. */
  unknown?: Array<{ project: string; reason: string }>;
}

export class RoslynEngine {
  private engine: EngineProcess | null = null;
  private opening: Promise<EngineProcess> | null = null;
  private failure: EngineUnavailableError | null = null;
  private starts = 0;
  private readonly changed = new Set<string>();
  private readonly timeouts: EngineTimeouts;
  loadInfo: EngineLoadInfo | null = null;
  private lastStartedPid: number | undefined;
  /**
   * After a load that left projects unjudged: resolves, once the restores settled, true when the engine
   * then loaded again by itself (a restore overlapped the load), false when nothing changed or it failed.
   */
  settled: Promise<boolean> = Promise.resolve(false);

  constructor(private readonly options: RoslynEngineOptions) {
    this.timeouts = { ...DEFAULT_ENGINE_TIMEOUTS, ...options.timeouts };
  }

  /** Why the engine cannot answer, once that is settled; null while it can (or has not been tried). */
  get unavailable(): string | null {
    return this.failure?.message ?? null;
  }

  /** The pid of the last engine process started (it may have ended since). */
  get lastPid(): number | undefined {
    return this.lastStartedPid;
  }

  /** Files changed on disk (workspace-relative): sent before the next question. */
  noteChanged(relPaths: readonly string[]): void {
    for (const rel of relPaths) this.changed.add(rel.replace(/\\/g, '/'));
  }

  /** Starts and loads without asking anything: a run calls it early so the first question is warm. */
  warmUp(): void {
    this.ready().catch(() => undefined);
  }

  /** True once a start was asked for (a question or warmUp), whether or not it has loaded yet. */
  get started(): boolean {
    return this.opening !== null || this.engine !== null || this.failure !== null;
  }

  async query<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    return this.call<T>(method, params, this.timeouts.queryMs, signal);
  }

  async check<T>(params: unknown, signal?: AbortSignal): Promise<T> {
    return this.call<T>('check', params, this.timeouts.checkMs, signal);
  }

  async dispose(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    this.opening = null;
    this.failure ??= new EngineUnavailableError('the C# engine was stopped', 'stopped');
    await engine?.dispose();
  }

  private async call<T>(method: string, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    for (;;) {
      try {
        const engine = await this.ready();
        await this.flushChanges(engine, signal);
        return await engine.request<T>(method, params, timeoutMs, signal);
      } catch (error) {
        if (!(error instanceof EngineUnavailableError)) throw error;
        if (this.failure) throw this.failure;
        // A crash or a hang: this process is gone (killed at the time limit); maybe start another.
        this.engine = null;
        this.opening = null;
        this.options.logger?.warn(`C# engine: ${error.message}`);
        if (this.starts >= this.maxStarts()) {
          this.failure = new EngineUnavailableError(`${error.message} (gave up after ${this.starts} start(s))`, error.reason);
          throw this.failure;
        }
      }
    }
  }

  private maxStarts(): number {
    return this.options.maxStarts ?? 2;
  }

  private async flushChanges(engine: EngineProcess, signal?: AbortSignal): Promise<void> {
    if (this.changed.size === 0) return;
    const paths = [...this.changed];
    this.changed.clear();
    await engine.request('update', { paths }, this.timeouts.queryMs, signal);
  }

  private ready(): Promise<EngineProcess> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.engine?.alive) return Promise.resolve(this.engine);
    this.opening ??= this.start().then(
      (engine) => (this.engine = engine),
      (error: unknown) => {
        this.opening = null;
        const failure = error instanceof EngineUnavailableError ? error : new EngineUnavailableError(String(error), 'load');
        // A solution that does not load will not load next time either; a crash may not recur (call() decides).
        if (failure.reason !== 'crash' && failure.reason !== 'hang') this.failure = failure;
        throw failure;
      },
    );
    return this.opening;
  }

  private async start(): Promise<EngineProcess> {
    if (engineDisabled()) throw new EngineUnavailableError('the C# engine is turned off (IRONBEES_ROSLYN=0)', 'missing');
    const enginePath = this.options.enginePath === undefined ? locateEngine() : this.options.enginePath;
    if (!enginePath) throw new EngineUnavailableError('the C# engine is not built (npm run build publishes it to dist/roslyn/)', 'missing');
    let target: string;
    try {
      target = await this.options.target();
    } catch (error) {
      throw new EngineUnavailableError(`no solution to open: ${error instanceof Error ? error.message : String(error)}`, 'load');
    }
    await this.options.restoresSettled?.();
    this.starts++;
    // Whatever changed before this start is on disk already, and the load reads the disk.
    this.changed.clear();
    const engine = new EngineProcess({ enginePath, cwd: this.options.workspaceRoot, env: this.options.env });
    this.lastStartedPid = engine.pid;
    try {
      this.loadInfo = await engine.request<EngineLoadInfo>(
        'open',
        { path: target, root: this.options.workspaceRoot },
        this.timeouts.openMs,
      );
    } catch (error) {
      engine.stop(new EngineUnavailableError('the C# engine was stopped after a failed load', 'stopped'));
      if (error instanceof EngineRequestError) throw new EngineUnavailableError(error.message, 'load');
      throw error;
    }
    const phases = Object.entries(this.loadInfo.phases ?? {})
      .map(([name, ms]) => `${name.replace(/Ms$/, '')} ${ms} ms`)
      .join(', ');
    // What was loaded is for the person; how long each phase took is for whoever debugs the engine.
    this.options.logger?.info(
      `C# engine: loaded ${path.basename(target)} (${this.loadInfo.projects} projects, ${this.loadInfo.documents} files)${this.loadInfo.fromCache ? ' from the warm-start cache' : ''}`,
    );
    this.options.logger?.debug(`C# engine: load took ${this.loadInfo.loadMs} ms${phases ? ` (${phases})` : ''}`);
    for (const warning of this.loadInfo.warnings) this.options.logger?.warn(`C# engine: MSBuild: ${warning}`);
    // Named once: the check answers "unknown" there until a restore or reload settles it.
    for (const { project, reason } of this.loadInfo.unknown ?? [])
      this.options.logger?.info(`C# engine: not judging ${project} for now: ${reason}`);
    // A restore that overlapped the load (the baseline's, started just after it) or that had not run:
    // once restores settle the engine loads again, while the run plans, not at the first question.
    if ((this.loadInfo.unknown ?? []).length > 0) this.settled = this.settleAfterRestores(engine);
    return engine;
  }

  private async settleAfterRestores(engine: EngineProcess): Promise<boolean> {
    try {
      await this.options.restoresSettled?.();
      if (!engine.alive) return false;
      const answer = await engine.request<{ reloaded?: boolean }>('settle', {}, this.timeouts.openMs);
      return answer.reloaded === true;
    } catch {
      // Not settled now: the next question reloads as before.
      return false;
    }
  }
}

const shared = new Map<string, RoslynEngine>();

/** The process's engine for this workspace and target, created on first use (nothing starts until a question). */
export function sharedEngine(options: RoslynEngineOptions): RoslynEngine {
  const key = `${path.resolve(options.workspaceRoot)}\0${options.targetKey?.replace(/\\/g, '/') ?? ''}`;
  let engine = shared.get(key);
  if (!engine) {
    engine = new RoslynEngine(options);
    shared.set(key, engine);
  }
  return engine;
}

/** Stops every shared engine (extension deactivation, test teardown). */
export async function stopSharedEngines(): Promise<void> {
  const engines = [...shared.values()];
  shared.clear();
  await Promise.all(engines.map((engine) => engine.dispose()));
}
