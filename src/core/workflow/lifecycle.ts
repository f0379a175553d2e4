// Run lifecycle hooks: a feature that must act at a run's milestones subscribes here instead of
// being wired into the orchestrator or a step (ARCHITECTURE.md, "The flow of a request"). The
// orchestrator emits them: run started, plan approved, edits applied, validation done, run ended.
// A subscriber that throws is logged, never fails the run: the run's own work comes first.

import { TERMINAL_NODES } from '../model';
import type { CodingState, ExecutionPlan, WorkflowNode } from '../model';

export type RunLifecycleEvent =
  | { kind: 'run_started'; runId: string; request: string }
  | { kind: 'plan_approved'; runId: string; plan: ExecutionPlan }
  | { kind: 'edits_applied'; runId: string; files: string[] }
  | { kind: 'validation_done'; runId: string; iteration: number; passed: boolean }
  | { kind: 'run_ended'; runId: string; node: WorkflowNode };

export type RunLifecycleKind = RunLifecycleEvent['kind'];
export type RunLifecycleHandler<K extends RunLifecycleKind> = (event: Extract<RunLifecycleEvent, { kind: K }>) => void | Promise<void>;

export class RunLifecycle {
  private tail: Promise<void> = Promise.resolve();
  private readonly handlers = new Map<RunLifecycleKind, Array<(event: RunLifecycleEvent) => void | Promise<void>>>();

  constructor(private readonly warn: (message: string) => void = () => undefined) {}

  /** Subscribes to one milestone; returns the unsubscribe. */
  on<K extends RunLifecycleKind>(kind: K, handler: RunLifecycleHandler<K>): () => void {
    const list = this.handlers.get(kind) ?? [];
    const entry = handler as (event: RunLifecycleEvent) => void | Promise<void>;
    list.push(entry);
    this.handlers.set(kind, list);
    return () => {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Calls the subscribers in the order they subscribed, one after the other. Emissions are queued:
   * a milestone's subscribers all finish before the next milestone's start, so they see the run's
   * order even when the run moves on while they work. Resolves when this event's subscribers are done.
   */
  emit(event: RunLifecycleEvent): Promise<void> {
    this.tail = this.tail.then(() => this.deliver(event));
    return this.tail;
  }

  private async deliver(event: RunLifecycleEvent): Promise<void> {
    for (const handler of [...(this.handlers.get(event.kind) ?? [])]) {
      try {
        await handler(event);
      } catch (error) {
        this.warn(`A ${event.kind} subscriber failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/**
 * The milestones a transition marks: into CODE from the plan (approved by a person, or with plan
 * approval `never`), from VALIDATE to DECIDE (its verdict is in the machine's context), into a
 * terminal node. Run started is emitted as a run starts, edits applied
 * by the journal as it writes them (journal.ts).
 */
export function milestonesOf(from: WorkflowNode | null, state: CodingState, context: { passed?: unknown }): RunLifecycleEvent[] {
  const runId = state.stateId;
  const to = state.currentNode;
  const events: RunLifecycleEvent[] = [];
  if (to === 'CODE' && (from === 'WAIT_PLAN_APPROVAL' || from === 'PLAN') && state.plan)
    events.push({ kind: 'plan_approved', runId, plan: state.plan });
  if (from === 'VALIDATE' && to === 'DECIDE') {
    events.push({ kind: 'validation_done', runId, iteration: state.iterationCount, passed: context.passed === true });
  }
  if (TERMINAL_NODES.includes(to) && from !== to) events.push({ kind: 'run_ended', runId, node: to });
  return events;
}
