// Drives runs of the statechart: starts, resumes, answers gates, cancels. After every transition
// the state is persisted (state.json, atomically) *before* it is handed to the caller, so whatever
// the caller saw survives a crash, and a resumed run repeats only the step that was in flight.

import { createActor } from 'xstate';
import type { InspectionEvent } from 'xstate';
import type { AnyActorLogic, Snapshot, SnapshotFrom } from 'xstate';
import type { Host } from '../host';
import { EMPTY_USAGE, TERMINAL_NODES, addUsage } from '../model';
import type { ApprovalDecision, CodingState, Usage, WorkflowContext, WorkflowNode } from '../model';
import { InvalidStateError, OrchestratorError, errorMessage } from '../errors';
import { checkWorkflow, checkedEditedPlan } from './run-checks';
import { runMachine } from './machine';
import type { RunContext, RunEvent, RunInput } from './run-context';
import { HELP_NODES } from './run-context';
import { endedDuring, toCodingState } from './coding-state';
import { iterationsOf, renderHandoff } from './handoff';
import { endReason, persistTransition, plusInFlight } from './run-persistence';
import { withPhases } from './live-phases';
import { GATES } from './live-run';
import type { LiveRun, RunActor } from './live-run';
import type { ShowPhases } from './live-phases';
import { problemWithFileDecisions } from './diff-decisions';
import { RunStore, STATE_SCHEMA_VERSION } from './store';
import type { PersistedRun } from './store';
import { AsyncQueue } from './async-queue';
import { strictOrders } from './run-signature';
import { acquireRunLock } from './run-lock';
import type { RunLock } from './run-lock';
import { createStepActors } from './step-actors';
import type { OrchestratorDeps } from './step-actors';
import type { Orchestrator, TraceEvent, TraceSink } from '../trace';
import { budgetReached } from './budget';
import { RunLifecycle, milestonesOf } from './lifecycle';
import type { BudgetReached } from './budget';
import { ActivityHub } from './activity-hub';
import { takeCheckpoint } from './checkpoints';
import { finishUnfinishedRewind } from './rewind';
import type { ActivityListener, ActivitySink } from '../activity';

type RunSnapshot = SnapshotFrom<typeof runMachine>;
type StepActors = Parameters<typeof runMachine.provide>[0]['actors'];

/** Builds the step implementations for a store; tests pass fakes here. */
export type StepActorsFactory = (
  store: RunStore,
  traceFor: (runId: string) => TraceSink,
  activityFor: (runId: string) => ActivitySink,
  phasesFor: (runId: string) => ShowPhases,
) => StepActors;

export class RunOrchestrator implements Orchestrator {
  readonly store: RunStore;
  /** Run milestones a feature subscribes to (lifecycle.ts). */
  readonly lifecycle: RunLifecycle;
  private readonly live = new Map<string, LiveRun>();
  private readonly machine: AnyActorLogic & typeof runMachine;
  private readonly activity: ActivityHub;

  constructor(
    private readonly host: Host,
    steps: StepActorsFactory,
  ) {
    this.store = new RunStore(host);
    this.lifecycle = new RunLifecycle((message) => host.logger.warn(message));
    this.store.journal.onApplied((runId, files) => this.lifecycle.emit({ kind: 'edits_applied', runId, files }));
    this.activity = new ActivityHub((message) => host.logger.warn(message));
    this.machine = runMachine.provide({
      actors: steps(
        this.store,
        (runId) => this.traceSink(runId),
        (runId) => this.activity.sinkFor(runId),
        (runId) => (phases) => this.live.get(runId)?.showPhases(phases) ?? Promise.resolve(),
      ),
    }) as typeof runMachine;
  }

  onActivity(listener: ActivityListener): () => void {
    return this.activity.subscribe(listener);
  }

  async *execute(request: string, context: WorkflowContext, signal?: AbortSignal, runId?: string): AsyncIterable<CodingState> {
    if (!request.trim()) throw new OrchestratorError('The request is empty; say what the agent should do.');
    checkWorkflow(context);
    if (runId !== undefined) this.store.runDir(runId);
    const stateId = runId ?? RunStore.newRunId();
    // Before anything is written: a second run on the workspace is refused here, naming the first.
    const lock = acquireRunLock(this.host.workspaceRoot, stateId);
    try {
      // .ironbees/.gitignore is no file an apply writes: it is made beside the recovery, not before it.
      const layout = this.store.ensureLayout();
      layout.catch(() => undefined); // awaited below; unobserved only when the recovery fails first
      // An apply cut short by a crash or power loss is finished before anything else (edit-journal-wal.ts).
      await this.store.journal.recoverUnfinished();
      await layout;
      const input: RunInput = { stateId, userRequest: request, workflow: context, createdAt: new Date().toISOString() };
      await this.lifecycle.emit({ kind: 'run_started', runId: stateId, request });
      yield* this.drive(
        createActor(this.machine, { input, inspect: this.stepEnds(input.stateId) }),
        input.stateId,
        input.createdAt,
        lock,
        signal,
      );
    } finally {
      lock.release();
    }
  }

  async *resume(stateId: string, signal?: AbortSignal): AsyncIterable<CodingState> {
    if (this.live.has(stateId)) throw new OrchestratorError(`Run ${stateId} is already running in this process`);
    // A rewind cut short is finished before the run is read (rewind.ts).
    await finishUnfinishedRewind(this.store, stateId);
    const run = await this.store.load(stateId);
    if (TERMINAL_NODES.includes(run.codingState.currentNode)) {
      yield run.codingState;
      return;
    }
    const snapshot = run.machine as Snapshot<unknown> & { context: RunContext };
    // A run folder this person did not make here (shipped in a repository, copied from elsewhere)
    // is data, not orders: what would loosen an approval or add context is not taken from it.
    if (!this.store.isOwnRun(run))
      snapshot.context = strictOrders(snapshot.context, this.host.workspaceRoot, (line) => this.host.logger.warn(line));
    // `input` is ignored when a snapshot is restored; it is given because the types require it.
    const { userRequest, workflow, createdAt } = snapshot.context;
    const input: RunInput = { stateId, userRequest, workflow, createdAt };
    const lock = acquireRunLock(this.host.workspaceRoot, stateId);
    try {
      await this.store.journal.recoverUnfinished();
      yield* this.drive(
        createActor(this.machine, { snapshot, input, inspect: this.stepEnds(stateId) }),
        stateId,
        run.createdAt,
        lock,
        signal,
      );
    } finally {
      lock.release();
    }
  }

  async approve(stateId: string, decision: ApprovalDecision): Promise<void> {
    // Decisions may come from a webview or a script: check the kind before trusting the shape.
    const allowed = Object.hasOwn(GATES, decision?.type) ? GATES[decision.type] : undefined;
    if (!allowed) {
      throw new OrchestratorError(`Unknown decision "${String(decision?.type)}"; expected one of ${Object.keys(GATES).join(', ')}`);
    }
    const run = this.live.get(stateId);
    const node = run?.latest.currentNode ?? (await this.store.load(stateId)).codingState.currentNode;
    if (!run || !allowed.includes(node)) {
      const expected = run ? allowed.join(' or ') : `${allowed.join(' or ')} in a live run (resume it first)`;
      throw new InvalidStateError(stateId, node, expected);
    }
    if (decision.type === 'APPROVE' && node === 'WAIT_DIFF_APPROVAL') {
      const problem = problemWithFileDecisions(run.latest.codeDiffs, decision.files);
      if (problem) throw new OrchestratorError(`Cannot apply the decision on run ${stateId}: ${problem}`, { stateId });
    }
    if (decision.type === 'APPROVE' && node === 'WAIT_PLAN_APPROVAL' && decision.editedPlan != null) {
      // An edited plan comes from a person's editor or a script; the coder must get a plan of the
      // same shape the planner's submit_plan is held to, or the run waits for a better one.
      run.actor.send({ ...decision, editedPlan: checkedEditedPlan(stateId, decision.editedPlan) });
      return;
    }
    run.actor.send(toEvent(decision));
    // A decision that ends the run (STOP): once this returns, the end is on disk and the workspace is free.
    if (run.actor.getSnapshot().status === 'done') await run.settled();
  }

  async cancel(stateId: string): Promise<void> {
    const run = this.live.get(stateId);
    if (run) {
      run.actor.send({ type: 'CANCEL', usage: run.stepUsage });
      run.stepUsage = EMPTY_USAGE;
      // The promise is "it ends CANCELLED, persisted": a caller may exit right after this.
      await run.settled();
      return;
    }
    // Not running here: mark the persisted run cancelled without restarting its step.
    const persisted = await this.store.load(stateId);
    if (TERMINAL_NODES.includes(persisted.codingState.currentNode)) return;
    const now = new Date().toISOString();
    const machine = { ...(persisted.machine as Record<string, unknown>), value: 'CANCELLED', status: 'done', children: {} };
    const stopped: CodingState = endedDuring(
      { ...persisted.codingState, currentNode: 'CANCELLED', timestamp: now },
      persisted.codingState.currentNode,
    );
    // Like any run that ends, it leaves a hand-off for whoever picks it up.
    const handoffPath = await this.store.writeHandoff(stateId, renderHandoff(stopped, iterationsOf(stopped), endReason(stopped)));
    const codingState: CodingState = { ...stopped, metadata: { ...stopped.metadata, handoffPath } };
    await this.store.save({ ...persisted, updatedAt: now, machine, codingState });
    await this.store.appendEvent(stateId, {
      kind: 'transition',
      at: now,
      from: persisted.codingState.currentNode,
      to: 'CANCELLED',
      iteration: codingState.iterationCount,
    });
  }

  async requestHelp(stateId: string, reason: string, budget?: BudgetReached): Promise<boolean> {
    const run = this.live.get(stateId);
    if (!run || !(HELP_NODES as readonly WorkflowNode[]).includes(run.actor.getSnapshot().value as WorkflowNode)) return false;
    const why = reason.trim() || 'No reason was given.';
    run.actor.send({ type: 'REQUEST_HELP', reason: why, usage: run.stepUsage, ...(budget ? { budget } : {}) });
    run.stepUsage = EMPTY_USAGE;
    if (run.actor.getSnapshot().value !== 'ESCALATE') return false;
    // Like cancel: once this returns, the escalation is on disk.
    await run.settled();
    return true;
  }

  async getState(stateId: string): Promise<CodingState> {
    return this.live.get(stateId)?.latest ?? (await this.store.load(stateId)).codingState;
  }

  /**
   * Watches the machine take in a step's outcome (a done or error event from the step's actor): from
   * then on the step's usage is in the context, not in flight. Seen as the event arrives, before the
   * next step starts, so the next step's first model call is never mistaken for this one's.
   */
  private stepEnds(runId: string): (event: InspectionEvent) => void {
    return (event) => {
      if (event.type !== '@xstate.event' || !/^xstate\.(done|error)\.actor\./.test(event.event.type)) return;
      const live = this.live.get(runId);
      if (live) live.stepUsage = EMPTY_USAGE;
    };
  }

  private traceSink(runId: string): TraceSink {
    return {
      record: (event: TraceEvent): void => {
        this.store.appendEvent(runId, event).catch((error) => this.host.logger.warn(`Trace write failed: ${errorMessage(error)}`));
        if (event.kind === 'model_call') this.live.get(runId)?.onModelCall(event.usage);
      },
    };
  }

  private async *drive(actor: RunActor, runId: string, createdAt: string, lock: RunLock, signal?: AbortSignal): AsyncIterable<CodingState> {
    const queue = new AsyncQueue<CodingState>();
    let lastNode: WorkflowNode | null = null;
    let warnedIgnored = false;
    let interrupted = false;
    let persisting: Promise<void> = Promise.resolve();
    /** The run as of its last transition, with only the usage the machine has taken in. */
    let committed: PersistedRun | null = null;
    /** What state.json holds now, and how many writes of it were queued: a checkpoint adds nothing to either. */
    let written: PersistedRun | null = null;
    let savesQueued = 0;

    const onSnapshot = (snapshot: RunSnapshot): void => {
      if (interrupted) return;
      const node = snapshot.value as WorkflowNode;
      if (node === lastNode) return;
      const from = lastNode;
      lastNode = node;
      const state = endedDuring(toCodingState(snapshot.context, node, new Date().toISOString()), from);
      // Said once per run in the log, as it is in state.json and HANDOFF.md: the model alone excuses no failure.
      if (node === 'VALIDATE' && typeof state.metadata.ignoredKnownFailures === 'string' && !warnedIgnored) {
        warnedIgnored = true;
        this.host.logger.warn(state.metadata.ignoredKnownFailures);
      }
      const persisted = actor.getPersistedSnapshot();
      // Started now, before the next step can write a file; on disk before the state is shown.
      const checkpoint = takeCheckpoint(this.store, { runId, machine: persisted, codingState: state }, from);
      // Queued now, in the machine's order (the next step may already be running); awaited before the state is shown.
      const milestones = Promise.all(milestonesOf(from, state, snapshot.context).map((event) => this.lifecycle.emit(event)));
      const live = this.live.get(runId);
      // The end of a run is shown only once it is on disk and the workspace lock is released (below).
      if (live && snapshot.status !== 'done') live.latest = state;
      savesQueued += 1;
      persisting = persisting
        .then(() => {
          committed = {
            schemaVersion: STATE_SCHEMA_VERSION,
            runId,
            createdAt,
            updatedAt: state.timestamp,
            codingState: state,
            machine: persisted,
          };
          return persistTransition(this.store, plusInFlight(committed, live?.stepUsage ?? EMPTY_USAGE), from);
        })
        .then(async (saved) => {
          written = saved;
          await milestones;
          await checkpoint;
          if (interrupted) return;
          if (live) live.latest = saved.codingState;
          // Whoever sees the run's end may start the next run at once: the workspace is free before that.
          if (snapshot.status === 'done') lock.release();
          queue.push(saved.codingState);
          if (snapshot.status === 'done') queue.close();
        })
        .catch((error) => queue.fail(error));
    };

    // state.json always counts what the step in flight has spent so far (saved again after each
    // model call): a run interrupted or killed mid-step keeps that cost in the snapshot it resumes
    // from, and the step that runs again adds its own.
    const onModelCall = (usage: Usage): void => {
      const live = this.live.get(runId);
      if (!live) return;
      live.stepUsage = addUsage(live.stepUsage, usage);
      // The budgets, after every model call: the machine's usage (steps done) plus this step's so far.
      const { context } = actor.getSnapshot();
      const runUsage = addUsage(context.usage, live.stepUsage);
      this.activity.publish({ kind: 'usage', runId, usage: runUsage });
      const reached = budgetReached(context.workflow.budget, runUsage, Date.now() - sessionStartedAt);
      if (reached) void this.requestHelp(runId, reached.message, reached);
      const queued = (savesQueued += 1);
      persisting = persisting
        .then(async () => {
          const last = committed;
          // Not written when a later write will count this call too, nor when it adds nothing to what is on disk.
          if (!last || TERMINAL_NODES.includes(last.codingState.currentNode) || queued !== savesQueued) return;
          const checkpoint = plusInFlight(last, live.stepUsage);
          if (checkpoint === written) return;
          await this.store.save(checkpoint);
          written = checkpoint;
          if (live.latest.currentNode === last.codingState.currentNode)
            live.latest = { ...live.latest, usage: checkpoint.codingState.usage };
        })
        .catch((error) => this.host.logger.warn(`Could not save the usage so far: ${errorMessage(error)}`));
    };

    // Saved and shown in turn with the transitions; the step's own end saves the phases it ends with.
    const showPhases: ShowPhases = (phases) => {
      savesQueued += 1;
      persisting = persisting
        .then(async () => {
          const live = this.live.get(runId);
          // Only onto the step's own node: not before its transition is saved, nor after the next one.
          if (!live || committed?.codingState.currentNode !== actor.getSnapshot().value) return;
          committed = withPhases(committed, phases, new Date().toISOString());
          const saved = plusInFlight(committed, live.stepUsage);
          await this.store.save(saved);
          written = saved;
          live.latest = saved.codingState;
          queue.push(saved.codingState);
        })
        .catch((error) => this.host.logger.warn(`Could not save the phases so far: ${errorMessage(error)}`));
      return persisting;
    };

    const sessionStartedAt = Date.now();
    const interrupt = (): void => {
      // Ctrl-C: stop here without a transition. state.json keeps the last step, which runs again on resume.
      interrupted = true;
      actor.stop();
      queue.close();
    };
    if (signal?.aborted) return;
    signal?.addEventListener('abort', interrupt, { once: true });

    const subscription = actor.subscribe({ next: onSnapshot, error: (error) => queue.fail(error) });
    this.live.set(runId, {
      actor,
      latest: toCodingState(actor.getSnapshot().context, actor.getSnapshot().value as WorkflowNode, createdAt),
      stepUsage: EMPTY_USAGE,
      onModelCall,
      showPhases,
      settled: () =>
        persisting.then(
          () => undefined,
          () => undefined,
        ),
    });
    const releaseEvents = this.store.holdEvents(runId);
    try {
      actor.start();
      onSnapshot(actor.getSnapshot());
      for await (const state of queue) yield state;
      await persisting;
    } finally {
      releaseEvents();
      subscription.unsubscribe();
      signal?.removeEventListener('abort', interrupt);
      this.live.delete(runId);
      if (!interrupted && actor.getSnapshot().status === 'active') {
        // The caller stopped listening mid-run: stop cleanly, keeping what was persisted.
        interrupted = true;
        actor.stop();
      }
    }
  }
}

function toEvent(decision: ApprovalDecision): RunEvent {
  return decision;
}

export function createOrchestrator(deps: OrchestratorDeps): RunOrchestrator {
  const orchestrator = new RunOrchestrator(deps.host, (store, traceFor, activityFor, phasesFor) =>
    createStepActors(deps, store, traceFor, activityFor, phasesFor),
  );
  // The C# symbols re-read what the run just wrote: the first subscriber of the lifecycle hooks.
  orchestrator.lifecycle.on('edits_applied', ({ files }) => deps.host.symbols.invalidate?.(files));
  return orchestrator;
}
