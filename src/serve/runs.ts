// The runs of a served API: a runtime (orchestrator) per workspace, made on first use through the
// CLI's one composition root; runs started or resumed here are followed to their end in the
// background, each state handed to its channel (SSE), the metrics and the notifications; runs on
// disk (an earlier server's, a terminal's) are found in the workspaces under the roots.

import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ApprovalDecision, CodingState, WorkflowContext, WorkflowNode } from '../core/model';
import { DEFAULT_REVIEW_THRESHOLD, TERMINAL_NODES } from '../core/model';
import type { Host, Logger } from '../core/host';
import type { ActivityEvent } from '../core/activity';
import type { Orchestrator, RunSummary } from '../core/trace';
import { InvalidStateError, OrchestratorError, StateNotFoundError, errorMessage } from '../core/errors';
import { RunStore } from '../core/runtime/faces';
import { RunChannel } from './run-channel';
import type { ServeMetrics } from './metrics';

export interface ServeRuntime {
  orchestrator: Orchestrator;
  /** The build target found in the workspace (workspace-relative). */
  target?: string;
  dispose?(): Promise<void>;
}

export interface RunHubDeps {
  /** Real paths of the --workspace-root folders. */
  roots: readonly string[];
  /** Builds the runtime of a workspace (its key and dotnet checked, trust decided). */
  createRuntime(workspace: string): Promise<ServeRuntime>;
  /** A host for reading run folders: no model, no dotnet. */
  createHost(workspace: string): Host;
  /** Runs use the scripted demo model. */
  demo: boolean;
  logger: Logger;
  metrics: ServeMetrics;
  /** Every state of a run driven here (notifications). */
  onState?(state: CodingState): void;
}

export interface StartOptions {
  maxIterations: number;
  planApproval: 'always' | 'never';
  diffApproval: 'always' | 'first' | 'never';
}

export type ServedRun = RunSummary & { workspace: string; live: boolean };

/** Every state and activity line of the runs driven here, as they come (the web page's feed). */
export type HubListener = (event: { kind: 'state'; state: CodingState } | { kind: 'activity'; event: ActivityEvent }) => void;

interface LiveRun {
  workspace: string;
  runtime: ServeRuntime;
  controller: AbortController;
  done: Promise<void>;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class NotLiveError extends OrchestratorError {}

export class RunHub {
  private readonly runtimes = new Map<string, Promise<ServeRuntime>>();
  private readonly live = new Map<string, LiveRun>();
  private readonly channels = new Map<string, RunChannel>();
  private readonly index = new Map<string, string>();
  private readonly epoch = randomBytes(6).toString('hex');
  private readonly listeners = new Set<HubListener>();

  constructor(private readonly deps: RunHubDeps) {}

  get activeRuns(): number {
    return this.live.size;
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(event: Parameters<HubListener>[0]): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.deps.logger.warn(`run feed: ${errorMessage(error)}`);
      }
    }
  }

  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  private runtime(workspace: string): Promise<ServeRuntime> {
    let made = this.runtimes.get(workspace);
    if (!made) {
      made = this.deps.createRuntime(workspace).then((runtime) => {
        runtime.orchestrator.onActivity?.((event) => {
          this.channels.get(event.runId)?.publish('activity', event);
          this.tell({ kind: 'activity', event });
        });
        return runtime;
      });
      // A failed setup (no key, nothing to build) is told now and tried again next time.
      made.catch(() => this.runtimes.delete(workspace));
      this.runtimes.set(workspace, made);
    }
    return made;
  }

  async start(workspace: string, request: string, options: StartOptions): Promise<string> {
    const runtime = await this.runtime(workspace);
    const context: WorkflowContext = {
      workspaceRoot: workspace,
      maxIterations: options.maxIterations,
      approval: { plan: options.planApproval, diffs: options.diffApproval },
      review: { mode: 'required', threshold: DEFAULT_REVIEW_THRESHOLD },
      timeouts: { buildMs: 600_000, testMs: 600_000 },
      ...(runtime.target ? { target: runtime.target } : {}),
      ...(this.deps.demo ? { modelProvider: 'demo' } : {}),
    };
    const controller = new AbortController();
    return this.follow(workspace, runtime, controller, runtime.orchestrator.execute(request, context, controller.signal), false);
  }

  async resume(runId: string): Promise<string> {
    if (this.live.has(runId)) throw new OrchestratorError(`Run ${runId} is already running here.`);
    const workspace = await this.locate(runId);
    const persisted = await this.store(workspace).load(runId);
    if (TERMINAL_NODES.includes(persisted.codingState.currentNode)) {
      throw new OrchestratorError(`Run ${runId} already ended at ${persisted.codingState.currentNode}.`);
    }
    const runtime = await this.runtime(workspace);
    const controller = new AbortController();
    return this.follow(workspace, runtime, controller, runtime.orchestrator.resume(runId, controller.signal), true);
  }

  /** Waits for the run's first state (a refused start throws here), then follows the rest in the background. */
  private async follow(
    workspace: string,
    runtime: ServeRuntime,
    controller: AbortController,
    states: AsyncIterable<CodingState>,
    resumed: boolean,
  ): Promise<string> {
    const iterator = states[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw new OrchestratorError('The run ended before it started.');
    const runId = first.value.stateId;
    this.index.set(runId, workspace);
    const channel = new RunChannel(this.epoch);
    this.channels.set(runId, channel);
    if (resumed) this.deps.metrics.track(first.value);
    const show = (state: CodingState): void => {
      channel.publish('state', state);
      this.deps.metrics.observe(state);
      this.deps.onState?.(state);
      this.tell({ kind: 'state', state });
    };
    const done = (async () => {
      try {
        show(first.value);
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) show(next.value);
      } catch (error) {
        this.deps.logger.error(`run ${runId}: ${errorMessage(error)}`);
      } finally {
        this.live.delete(runId);
        channel.end();
      }
    })();
    this.live.set(runId, { workspace, runtime, controller, done });
    return runId;
  }

  /** Answers the gate `gate` only: an approval meant for the plan never approves diffs that came since. */
  async answer(runId: string, gate: WorkflowNode, decision: ApprovalDecision): Promise<void> {
    const run = this.live.get(runId);
    if (!run) throw new NotLiveError(`Run ${runId} is not running in this server; resume it first (POST /api/runs/${runId}/resume).`);
    const node = (await run.runtime.orchestrator.getState(runId)).currentNode;
    if (node !== gate) throw new InvalidStateError(runId, node, gate);
    await run.runtime.orchestrator.approve(runId, decision);
  }

  async cancel(runId: string): Promise<CodingState> {
    const run = this.live.get(runId);
    if (run) {
      await run.runtime.orchestrator.cancel(runId);
      await run.done;
      return run.runtime.orchestrator.getState(runId);
    }
    const workspace = await this.locate(runId);
    const orchestrator = (await this.runtime(workspace)).orchestrator;
    await orchestrator.cancel(runId);
    return orchestrator.getState(runId);
  }

  async state(runId: string): Promise<CodingState> {
    const run = this.live.get(runId);
    if (run) return run.runtime.orchestrator.getState(runId);
    return (await this.store(await this.locate(runId)).load(runId)).codingState;
  }

  /** The run's HANDOFF.md, or null when it has none yet. */
  async handoff(runId: string): Promise<string | null> {
    const workspace = await this.locate(runId);
    const file = path.join(workspace, '.ironbees', 'runs', runId, 'HANDOFF.md');
    return readFile(file, 'utf8').catch(() => null);
  }

  /** The run's live channel; for a run not driven here, one holding its state on disk. */
  async channel(runId: string): Promise<RunChannel> {
    const existing = this.channels.get(runId);
    if (existing) return existing;
    const state = await this.state(runId);
    const channel = new RunChannel(this.epoch);
    channel.publish('state', state);
    if (!this.live.has(runId)) channel.end();
    return channel;
  }

  async list(): Promise<ServedRun[]> {
    const runs: ServedRun[] = [];
    for (const workspace of this.workspaces()) {
      for (const summary of await this.store(workspace).list()) {
        this.index.set(summary.runId, workspace);
        runs.push({ ...summary, workspace, live: this.live.has(summary.runId) });
      }
    }
    return runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Stops following: live runs are interrupted where they are (resumable), runtimes disposed. */
  async close(): Promise<void> {
    for (const run of this.live.values()) run.controller.abort();
    await Promise.all([...this.live.values()].map((run) => run.done));
    for (const made of this.runtimes.values()) {
      const runtime = await made.catch(() => null);
      await runtime?.dispose?.().catch((error: unknown) => this.deps.logger.warn(errorMessage(error)));
    }
  }

  private store(workspace: string): RunStore {
    return new RunStore(this.deps.createHost(workspace));
  }

  /** The roots, their folders holding runs, and the workspaces used here. */
  private workspaces(): string[] {
    const found = new Set<string>();
    const hasRuns = (dir: string): boolean => existsSync(path.join(dir, '.ironbees', 'runs'));
    for (const root of this.deps.roots) {
      if (hasRuns(root)) found.add(root);
      let entries: string[] = [];
      try {
        entries = readdirSync(root, { withFileTypes: true })
          .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
          .map((e) => path.join(root, e.name));
      } catch {
        continue;
      }
      for (const dir of entries) if (hasRuns(dir)) found.add(dir);
    }
    for (const workspace of this.index.values()) found.add(workspace);
    return [...found];
  }

  private async locate(runId: string): Promise<string> {
    if (!RUN_ID.test(runId)) throw new StateNotFoundError(runId);
    const known = this.index.get(runId);
    if (known) return known;
    for (const workspace of this.workspaces()) {
      if (existsSync(path.join(workspace, '.ironbees', 'runs', runId, 'state.json'))) {
        this.index.set(runId, workspace);
        return workspace;
      }
    }
    throw new StateNotFoundError(runId);
  }
}
