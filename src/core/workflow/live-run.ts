// What the orchestrator keeps of a run while it drives it, and which gates take which answer.

import type { Actor } from 'xstate';
import type { ApprovalDecision, CodingState, Usage, WorkflowNode } from '../model';
import { gatesAnswering } from '../nodes';
import type { runMachine } from './machine';
import type { ShowPhases } from './live-phases';

export type RunActor = Actor<typeof runMachine>;

// Which gates take which answer: the node table's `answers`.
export const GATES: Record<ApprovalDecision['type'], readonly WorkflowNode[]> = {
  APPROVE: gatesAnswering('APPROVE'),
  REJECT: gatesAnswering('REJECT'),
  CONTINUE: gatesAnswering('CONTINUE'),
  STOP: gatesAnswering('STOP'),
};

export interface LiveRun {
  actor: RunActor;
  latest: CodingState;
  /**
   * What the model calls of the step in flight have cost so far: the machine learns a step's usage
   * only when the step ends. Back to nothing whenever the machine takes a step's usage in: when the
   * step ends, or with the cancel or request for help that stops it.
   */
  stepUsage: Usage;
  /** Told of every model call of the run, to keep stepUsage and state.json up to date. */
  onModelCall(usage: Usage): void;
  /** Resolves once every transition so far is on disk. */
  settled(): Promise<void>;
  /** The phases a step runs at once, as they start and end (live-phases.ts). */
  showPhases: ShowPhases;
}
