// Owns the runs of one workspace folder: the orchestrator (built lazily, rebuilt when settings or
// the key change between runs), the live run it follows, and the latest state, which everything
// else (status bar, panel, diff review, context keys) observes through `onDidChangeState`.
// A run is driven by iterating the orchestrator's AsyncIterable until it ends; gates are answered
// while it waits. After a window reload the latest persisted run is shown again, and a run that
// waits at a gate is resumed before it is answered.

import * as vscode from 'vscode';
import { TERMINAL_NODES } from '../core/model';
import type { ApprovalDecision, CodingState, ExecutionPlan, Usage, WorkflowNode } from '../core/model';
import { totalTokens } from '../core/workflow/budget';
import { OrchestratorError, errorMessage } from '../core/errors';
import type { RevertReport } from '../core/workflow/store';
import { RunStore } from '../core/workflow/store';
import { revertRun } from '../core/workflow/revert-run';
import { renderInterruptedHandoff } from '../core/workflow/handoff';
import type { RunSummary } from '../core/trace';
import { createNodeHost } from '../host/node/index';
import { Disposable } from './lifecycle';
import { workflowContext } from './settings';
import type { ExtensionRuntime } from './runtime';
import { GATE_NODES, isWorking, statusText } from './status-text';
import type { ActivityEvent } from '../core/activity';
import { activityLogLine } from './activity-log';
import { RunRuntimes } from './run-runtimes';
import type { RunControllerDeps } from './run-runtimes';
import { followStates, waitForNodes } from './run-states';
import { refuseWorktreeRun } from './worktree-guard';

export interface Report {
  kind: 'error' | 'notice';
  message: string;
}

interface LiveRun {
  runId: string | null;
  abort: AbortController;
  done: Promise<void>;
  /** The runtime whose orchestrator drives this run: a settings change replaces `runtime`, not this. */
  runtime: ExtensionRuntime;
}

const DEFAULT_WAIT_MS = 120_000;

export class RunController extends Disposable {
  private readonly _onDidChangeState = this._register(new vscode.EventEmitter<CodingState | null>());
  readonly onDidChangeState: vscode.Event<CodingState | null> = this._onDidChangeState.event;
  private readonly _onDidChangeHistory = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeHistory: vscode.Event<void> = this._onDidChangeHistory.event;
  private readonly _onDidReport = this._register(new vscode.EventEmitter<Report>());
  readonly onDidReport: vscode.Event<Report> = this._onDidReport.event;
  /** The live activity of the run being followed (model words, tool lines, usage after each model call). */
  private readonly _onDidActivity = this._register(new vscode.EventEmitter<ActivityEvent>());
  readonly onDidActivity: vscode.Event<ActivityEvent> = this._onDidActivity.event;

  readonly store: RunStore;
  private current: CodingState | null = null;
  private live: LiveRun | null = null;
  /** The runtime of the folder's runs, and the replaced ones still to close (run-runtimes.ts). */
  private readonly runtimes: RunRuntimes;
  private restored: Promise<void> | null = null;
  /** The followed run's usage as of its last model call (activity), ahead of its next transition. */
  private liveUsage: { runId: string; usage: Usage } | null = null;
  /** The run a rewind here just left at WAIT_HUMAN (showRun). */
  private rewound: string | null = null;

  constructor(private readonly deps: RunControllerDeps) {
    super();
    this.store = new RunStore(createNodeHost(deps.folder.uri.fsPath, { logger: deps.logger }));
    this.runtimes = new RunRuntimes(deps, () => this.live !== null);
  }

  get workspaceRoot(): string {
    return this.deps.folder.uri.fsPath;
  }

  get state(): CodingState | null {
    return this.current;
  }

  /** A step is working (not waiting for the person, not finished). */
  get busy(): boolean {
    return this.live !== null && isWorking(this.current);
  }

  get isLive(): boolean {
    return this.live !== null;
  }

  /** The run shown did not finish and nothing follows it (the window was reloaded or closed mid-run): it waits for Resume. */
  get interrupted(): boolean {
    // A run just rewound here waits for guidance on purpose: not "interrupted by a window reload".
    return (
      this.live === null &&
      this.current !== null &&
      !TERMINAL_NODES.includes(this.current.currentNode) &&
      this.current.stateId !== this.rewound
    );
  }

  get statusText(): string {
    return statusText(this.current, this.interrupted);
  }

  /** Settings or the key changed: the next run builds a fresh runtime (a live run keeps its own). */
  invalidateRuntime(): void {
    this.runtimes.invalidate();
  }

  /** Shows the latest persisted run (after a window reload the panel comes back to it). */
  restoreLatest(): Promise<void> {
    this.restored ??= (async (): Promise<void> => {
      const runs = await this.history().catch(() => []);
      if (!runs.length || this.current) return;
      const latest = await this.store.load(runs[0].runId).catch(() => null);
      if (latest && !this.current) this.setState(latest.codingState);
    })();
    return this.restored;
  }

  /** Starts a run; resolves with its first state, once it is persisted. */
  async start(request: string, target?: string): Promise<CodingState> {
    if (this.live) throw new OrchestratorError('A run is already in progress here; cancel it or wait for it to finish.');
    const runtime = await this.runtimes.get();
    const context = workflowContext(this.deps.settings(), this.workspaceRoot, target);
    return this.follow(runtime, (signal) => runtime.orchestrator.execute(request, context, signal));
  }

  /**
   * Starts a run that works in another folder (a git worktree: worktree-run.ts) with a runtime of
   * its own, closed when the run ends; `wrap` sees its states (the worktree's commits). Resolves with
   * the first state and with `done`, once the run was followed to its end.
   */
  async startIn(
    workspaceRoot: string,
    request: string,
    options: { runId: string; target?: string; wrap: (states: AsyncIterable<CodingState>) => AsyncIterable<CodingState> },
  ): Promise<{ first: CodingState; done: Promise<void> }> {
    if (this.live) throw new OrchestratorError('A run is already in progress here; cancel it or wait for it to finish.');
    const runtime = await this.runtimes.build(workspaceRoot);
    const context = workflowContext(this.deps.settings(), workspaceRoot, options.target);
    const started = this.follow(runtime, (signal) => options.wrap(runtime.orchestrator.execute(request, context, signal, options.runId)));
    const live = this.live as LiveRun | null;
    const done = (live?.done ?? Promise.resolve())
      .then(() => runtime.close())
      .catch((error: unknown) => this.deps.logger.warn(`Stopping MCP servers: ${errorMessage(error)}`));
    return { first: await started, done };
  }

  /** Continues a persisted run from where it stopped; resolves with its first state. */
  async resume(runId: string): Promise<CodingState> {
    if (this.live?.runId === runId) return this.current as CodingState;
    refuseWorktreeRun(this.workspaceRoot, runId, 'resume');
    if (this.live) throw new OrchestratorError('Another run is in progress here; cancel it before resuming this one.');
    const runtime = await this.runtimes.get();
    return this.follow(runtime, (signal) => runtime.orchestrator.resume(runId, signal));
  }

  approvePlan(editedPlan?: ExecutionPlan): Promise<void> {
    return this.answer(['WAIT_PLAN_APPROVAL'], { type: 'APPROVE', ...(editedPlan ? { editedPlan } : {}) });
  }

  rejectPlan(feedback: string): Promise<void> {
    return this.answer(['WAIT_PLAN_APPROVAL'], { type: 'REJECT', feedback });
  }

  /** The diff review's verdict (APPROVE with per-file decisions) or a rejection with feedback. */
  decideDiffs(decision: ApprovalDecision): Promise<void> {
    return this.answer(['WAIT_DIFF_APPROVAL'], decision);
  }

  continueRun(guidance: string, additionalIterations: number): Promise<void> {
    return this.answer(['WAIT_HUMAN'], { type: 'CONTINUE', guidance, additionalIterations });
  }

  stop(): Promise<void> {
    return this.answer(['WAIT_HUMAN'], { type: 'STOP' });
  }

  async cancel(): Promise<void> {
    const state = this.current;
    if (!state || TERMINAL_NODES.includes(state.currentNode)) throw new OrchestratorError('There is no unfinished run to cancel.');
    await this.end(state.stateId);
  }

  /**
   * Restores every file a run changed. A run that waits for the person (at a gate, live or only on
   * disk after a reload) is cancelled first and its end persisted: left waiting, it could still be
   * approved and write the files again, and the history would show it waiting for nothing.
   */
  async revert(runId: string): Promise<RevertReport> {
    refuseWorktreeRun(this.workspaceRoot, runId, 'revert');
    const live = this.live?.runId === runId ? this.live : null;
    const node = live ? this.current?.currentNode : (await this.store.load(runId).catch(() => null))?.codingState.currentNode;
    if (node && !TERMINAL_NODES.includes(node)) {
      // A live step (coding, validating) may still write files: only a waiting run is stopped here.
      if (live && !GATE_NODES.includes(node)) {
        throw new OrchestratorError(
          `The run is still working (${node}); cancel it, or wait for it to stop at a gate, before reverting it.`,
        );
      }
      this.deps.logger.info(`Run ${runId} has not finished (${node}): cancelling it before the revert.`);
      await this.end(runId);
    }
    // A run that just ended is still being followed for a moment (its last state being saved).
    await live?.done;
    const report = await revertRun(this.store, runId);
    // The panel shows the reverted run as reverted, not as it ended.
    if (this.current?.stateId === runId) this.setState((await this.store.load(runId)).codingState);
    this._onDidChangeHistory.fire();
    this.deps.logger.info(`Reverted run ${runId}: restored ${report.restored.length} file(s), deleted ${report.deleted.length}.`);
    return report;
  }

  /** Before a rewind: the live run, waiting at a gate, stops being followed (it stays on disk); at work, refused. */
  async stopFollowingForRewind(runId: string): Promise<void> {
    if (this.live?.runId !== runId) return;
    const node = this.current?.currentNode;
    if (!node || !GATE_NODES.includes(node)) {
      throw new OrchestratorError(
        `The run is still working (${node ?? 'starting'}); wait for it to stop at a gate before restoring a checkpoint.`,
      );
    }
    await this.shutdown();
  }

  /** Shows run `runId` as it is on disk now (after a rewind wrote it). */
  async showRun(runId: string): Promise<void> {
    this.rewound = runId;
    this.setState((await this.store.load(runId)).codingState);
    this._onDidChangeHistory.fire();
  }

  /**
   * Writes HANDOFF.md for the interrupted run shown, which has none (hand-offs are written at an
   * escalation and at the end); resolves with its path, or null when no interrupted run is shown.
   */
  async writeInterruptedHandoff(runId: string): Promise<string | null> {
    const state = this.current;
    if (!state || state.stateId !== runId || !this.interrupted) return null;
    return this.store.writeHandoff(runId, renderInterruptedHandoff(state));
  }

  /** Newest first. */
  async history(): Promise<RunSummary[]> {
    const runs = await this.store.list();
    return runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async unfinishedRuns(): Promise<RunSummary[]> {
    return (await this.history()).filter((run) => !TERMINAL_NODES.includes(run.currentNode) && run.runId !== this.live?.runId);
  }

  /** Resolves with the state once the current run reaches one of `nodes` (tests, and gates after resume). */
  waitFor(nodes: readonly WorkflowNode[], timeoutMs = DEFAULT_WAIT_MS): Promise<CodingState> {
    return waitForNodes(() => this.current, this.onDidChangeState, nodes, timeoutMs);
  }

  /** Stops following the live run without a transition (window closing): it stays resumable. */
  async shutdown(): Promise<void> {
    const live = this.live;
    if (!live) return;
    live.abort.abort();
    await live.done;
  }

  override dispose(): void {
    this.live?.abort.abort();
    this.invalidateRuntime();
    // The run stopped above settles on its own; its runtime's servers go with the rest.
    void (this.live?.done ?? Promise.resolve()).then(() => this.runtimes.closeRetired());
    super.dispose();
  }

  /** Cancels a run (live here, or only persisted) and resolves once it ended CANCELLED on disk. */
  private async end(runId: string): Promise<void> {
    const live = this.live?.runId === runId ? this.live : null;
    const runtime = live?.runtime ?? (await this.runtimes.get());
    await runtime.orchestrator.cancel(runId);
    if (live) await live.done;
    else if (this.current?.stateId === runId) this.setState(await runtime.orchestrator.getState(runId));
    this._onDidChangeHistory.fire();
  }

  private async answer(gates: readonly WorkflowNode[], decision: ApprovalDecision): Promise<void> {
    const state = this.current;
    if (!state || !gates.includes(state.currentNode)) {
      throw new OrchestratorError(
        `The run is not waiting for that (it is at ${state?.currentNode ?? 'no run'}; expected ${gates.join(' or ')}).`,
      );
    }
    // After a reload the run waits on disk, not in memory: bring it back to the gate first.
    if (!this.live) {
      await this.resume(state.stateId);
      await this.waitFor(gates);
    }
    const runtime = this.live?.runtime ?? (await this.runtimes.get());
    await runtime.orchestrator.approve(state.stateId, decision);
  }

  private follow(runtime: ExtensionRuntime, start: (signal: AbortSignal) => AsyncIterable<CodingState>): Promise<CodingState> {
    const abort = new AbortController();
    const live: LiveRun = { runId: null, abort, done: Promise.resolve(), runtime };
    this.live = live;
    const stopActivity = runtime.orchestrator.onActivity?.((event) => this.onActivity(live, event));
    const followed = followStates(() => start(abort.signal), {
      state: (state, first) => {
        live.runId = state.stateId;
        this.setState(state);
        if (first) this._onDidChangeHistory.fire();
      },
      error: (error) => this.report('error', `The run stopped with an error: ${errorMessage(error)}`),
      end: () => {
        stopActivity?.();
        if (this.live === live) this.live = null;
        void this.runtimes.closeRetired();
        // Listeners see the run is no longer live (the status bar stops spinning).
        this._onDidChangeState.fire(this.current);
        this._onDidChangeHistory.fire();
      },
    });
    live.done = followed.done;
    return followed.first;
  }

  /** Only the followed run's; its usage after each model call moves the state's tokens during a step. */
  private onActivity(live: LiveRun, event: ActivityEvent): void {
    if (this.live !== live || (live.runId !== null && event.runId !== live.runId)) return;
    const line = activityLogLine(event);
    if (line) this.deps.logger.debug(line);
    if (event.kind === 'usage') {
      this.liveUsage = { runId: event.runId, usage: event.usage };
      if (this.current?.stateId === event.runId) {
        this.current = { ...this.current, usage: event.usage };
        this._onDidChangeState.fire(this.current);
      }
    }
    this._onDidActivity.fire(event);
  }

  private setState(next: CodingState): void {
    const previous = this.current?.currentNode;
    // A transition's state may be on its way while the step's model calls are counted: a run's usage only grows.
    const live = this.liveUsage;
    const state = live?.runId === next.stateId && totalTokens(live.usage) > totalTokens(next.usage) ? { ...next, usage: live.usage } : next;
    this.current = state;
    if (previous !== state.currentNode) this.deps.logger.info(`Run ${state.stateId}: ${previous ?? '—'} → ${state.currentNode}`);
    this._onDidChangeState.fire(state);
  }

  report(kind: Report['kind'], message: string): void {
    if (kind === 'error') this.deps.logger.error(message);
    else this.deps.logger.info(message);
    this._onDidReport.fire({ kind, message });
  }
}

export { GATE_NODES };
export type { RunControllerDeps };
