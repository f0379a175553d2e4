// The statechart's context, its input and events, and the inputs/outputs of its actors. All plain
// JSON: a snapshot of the machine is written to state.json and restored on resume, and a restored
// invoke starts again from its saved input.

import type { PlanChanges } from './plan-changes';
import type { InstructionsFileRead } from '../agents/instructions';
import type { BudgetReached, RunBudget } from './budget';
import { helpNodes } from '../nodes';
import type { PhaseRun } from './phase-states';
import type {
  ApprovalDecision,
  Baseline,
  BuildResult,
  CodingState,
  ErrorContext,
  ExecutionPlan,
  FileEdit,
  IterationRecord,
  PhaseBrief,
  PhaseState,
  ReviewResult,
  TestResult,
  Usage,
  WorkflowContext,
  WorkflowNode,
} from '../model';

export interface RunInput {
  stateId: string;
  userRequest: string;
  workflow: WorkflowContext;
  createdAt: string;
}

export interface RunContext {
  stateId: string;
  userRequest: string;
  workflow: WorkflowContext;
  createdAt: string;
  spec: string | null;
  plan: ExecutionPlan | null;
  /** Feedback on a rejected plan, for the next PLAN. */
  planFeedback: string | null;
  /** The last re-plan after feedback returned the very plan the person rejected (said at the gate). */
  planUnchangedAfterFeedback?: boolean;
  /** What the coder proposed in the current iteration. */
  codeDiffs: FileEdit[];
  coderSummary: string;
  /** What the person accepted (whole files or hunks), to be applied at VALIDATE. */
  approvedEdits: FileEdit[];
  /** Which files or hunks were rejected, and why; told to the coder. */
  rejections: string | null;
  /** Guidance from a diff rejection or from WAIT_HUMAN; told to the coder. */
  guidance: string | null;
  baseline: Baseline | null;
  buildResult: BuildResult | null;
  testResult: TestResult | null;
  errorContext: ErrorContext | null;
  /** Tests that failed in the baseline and passed at the last validation. Absent in runs persisted before. */
  fixedTests?: string[];
  passed: boolean;
  iterationCount: number;
  maxIterations: number;
  iterations: IterationRecord[];
  usage: Usage;
  handoffPath: string | null;
  error: string | null;
  /** 'configuration' when the run failed for its set-up (the baseline's restore), not its work. Absent in runs persisted before. */
  failureKind?: 'configuration' | null;
  /**
   * Every proposal of the coder the person decided on, in order: applied (all or part of it went to
   * validation) or rejected whole. For the hand-off. Absent in runs persisted before.
   */
  attempts?: AttemptRecord[];
  /**
   * Set when someone working on the run asked for a person (REQUEST_HELP): why, and at which step,
   * so the hand-off says so and CONTINUE goes back to that step. Absent in runs persisted before.
   */
  helpRequest?: HelpRequest | null;
  /**
   * Whether a person approved the current plan at its gate (CLI `--yes` is the person's blanket
   * approval given up front). Only then do the planner's `knownFailures` excuse failing tests.
   * Absent in runs persisted before: with plan approval `always` every plan passed the gate.
   */
  planApprovedByPerson?: boolean;
  /** Set when the plan passed its gate on a standing approval (`--yes`): its `knownFailures` excuse nothing. */
  planApprovedUnattended?: boolean;
  /** Every instructions file an agent of the run was given, by path (the latest step's read last). */
  instructionsRead?: InstructionsFileRead[];
  /** Each plan version with what made it (steering.ts). Absent in runs persisted before. */
  planVersions?: PlanVersion[];
  /** The person's guidance at each escalation, kept after the run continues. Absent in runs persisted before. */
  guidanceGiven?: GuidanceGiven[];
  /**
   * The approval gates the run stopped at for the person, each once, in the order first reached (an
   * approval setting of "never" skips a gate). Absent in runs persisted before.
   */
  gatesReached?: ApprovalGate[];
  /** Whole proposals the person rejected in a row within the current iteration (rejection.ts). Absent in runs persisted before: none. */
  rejectionsInARow?: number;
  /** Files the person changed under review, so the approved edits were not applied; the coder proposes again (edit-conflict.ts). */
  editConflict?: string[] | null;
  /** The approved plan's phases and where each stands (phases.ts). Absent before a plan is approved, and in runs persisted before. */
  phases?: PhaseRun[];
  /**
   * The phases as they ran when phases run at once stopped the run (live-phases.ts), shown instead of
   * `phases` until the person answers the escalation. Absent otherwise.
   */
  phasesAtStop?: PhaseState[] | null;
  /** Each rewind to a checkpoint (rewind.ts), with the iterations it set aside. Absent when never rewound. */
  rewinds?: RewindRecord[];
  /** The reviewer's last verdict (review-step.ts); absent until a review ran. */
  review?: ReviewResult | null;
}

/** A rewind: where the run went back to, and the attempts it set aside (kept for the trace and HANDOFF.md). */
export interface RewindRecord {
  at: string;
  checkpoint: string;
  label: string;
  /** The node and iteration the run was at when it was rewound. */
  fromNode: WorkflowNode;
  fromIteration: number;
  /** The iterations after the checkpoint, as they were recorded before the rewind. */
  setAside: IterationRecord[];
}

/** The gates an approval setting can skip. */
export type ApprovalGate = 'WAIT_PLAN_APPROVAL' | 'WAIT_DIFF_APPROVAL';

/** A version of the plan and what made it (steering.ts keeps the list). */
export interface PlanVersion {
  version: number;
  summary: string;
  stepCount: number;
  /** What the person said that made this version: rejection feedback, an answer to a request for help, or their own edit. Null for the first plan. */
  feedback: string | null;
  /** True when the planner returned the very plan the person had rejected. */
  unchanged: boolean;
  /** Who made it: the planner, or the person editing the plan at its gate. */
  by: 'planner' | 'person';
  /** The steps added and removed against the version before (absent on the first). */
  changes?: PlanChanges;
}

export interface GuidanceGiven {
  /** The iteration the guidance was given for (the one about to start). */
  iteration: number;
  guidance: string;
}

/** One proposal of the coder and what became of it, with its diffs (capped) for the hand-off. */
export interface AttemptRecord {
  iteration: number;
  /** `not applied`: accepted, but a file changed on disk under review, so nothing was written. */
  outcome: 'applied' | 'rejected' | 'not applied';
  files: string[];
  /** Why the person rejected it, or the parts of it they rejected. */
  feedback?: string;
  /** The unified diffs of what was applied (or proposed, when rejected), capped in size. */
  diff: string;
  /** The coder's own summary of this proposal. */
  summary?: string;
}

/** The working states a run can be pulled out of by a request for help (`help` in the node table). */
export type HelpNode = Extract<WorkflowNode, 'PLAN' | 'CODE' | 'VALIDATE' | 'REVIEW'>;
export const HELP_NODES = helpNodes() as readonly HelpNode[];

export interface HelpRequest {
  reason: string;
  from: HelpNode;
  /** Set when the run stopped because it reached a budget: which, its limit and what was spent. */
  budget?: BudgetReached;
}

export type RunEvent =
  | { type: 'APPROVE'; editedPlan?: ExecutionPlan; files?: ApprovalFiles; unattended?: boolean }
  | { type: 'REJECT'; feedback: string }
  | { type: 'CONTINUE'; guidance: string; additionalIterations: number; budget?: RunBudget }
  | { type: 'STOP' }
  /** `usage`: what the step in flight has spent so far; it is stopped, so it will not report it. */
  | { type: 'CANCEL'; usage?: Usage }
  /** Someone working on the run (an agent over MCP) needs a person: escalate now. */
  | { type: 'REQUEST_HELP'; reason: string; usage?: Usage; budget?: BudgetReached };

type ApprovalFiles = Extract<ApprovalDecision, { type: 'APPROVE' }>['files'];

export interface BaselineInput {
  stateId: string;
  workflow: WorkflowContext;
}

export interface PlanInput {
  stateId: string;
  workflow: WorkflowContext;
  request: string;
  feedback: string | null;
  previousPlan: ExecutionPlan | null;
  baseline: Baseline | null;
  /** The run's iteration count when the planner runs (for the trace); absent in snapshots from before it was passed. */
  iteration?: number;
}
export interface PlanOutput {
  spec: string;
  plan: ExecutionPlan;
  usage: Usage;
  /** The instructions files the step's agent was given (AGENTS.md, --context …). */
  instructionsRead?: InstructionsFileRead[];
}

export interface CodeInput {
  stateId: string;
  workflow: WorkflowContext;
  request: string;
  spec: string;
  plan: ExecutionPlan;
  errorContext: ErrorContext | null;
  iteration: number;
  /** Earlier attempts' changes already applied (files and capped diff). */
  applied?: Array<Pick<AttemptRecord, 'iteration' | 'files' | 'diff'>>;
  /** In a plan of phases: the running phase and the completed ones' hand-offs (`plan` is then that phase's part). */
  phase?: PhaseBrief;
  /** --parallel N with the phases not started yet: the whole plan, its phases run at once (parallel-phases.ts). */
  parallel?: { plan: ExecutionPlan; limit: number };
}
export interface CodeOutput {
  summary: string;
  edits: FileEdit[];
  usage: Usage;
  instructionsRead?: InstructionsFileRead[];
  /** The phases as the step ran them, when it ran them all at once. */
  phases?: PhaseRun[];
}

export interface ValidateInput {
  stateId: string;
  workflow: WorkflowContext;
  edits: FileEdit[];
  baseline: Baseline | null;
  /** The plan's `knownFailures` a person approved: baseline failures that do not block SUCCESS. */
  knownFailures: string[];
  iteration: number;
  rejections: string | null;
  guidance: string | null;
}
export interface ValidateOutput {
  build: BuildResult;
  test: TestResult | null;
  passed: boolean;
  /** Built for the coder when validation failed; null when it passed. */
  errorContext: ErrorContext | null;
  newErrors: number;
  newFailures: number;
  /** Baseline failures that ran this time and passed (the validator's `fixedFailures`). */
  fixedTests?: string[];
}

export interface DecideInput {
  passed: boolean;
  iteration: number;
  maxIterations: number;
}
export type Verdict = 'pass' | 'retry' | 'escalate';
export interface DecideOutput {
  verdict: Verdict;
}

export interface ReviewInput {
  stateId: string;
  workflow: WorkflowContext;
  request: string;
  spec: string;
  plan: ExecutionPlan;
  baselineTests: TestResult | null;
  tests: TestResult | null;
  iteration: number;
  maxIterations: number;
}
export interface ReviewOutput {
  /** pass: on to SUCCESS; retry: back to the coder with the issues; escalate: no iteration left. */
  verdict: Verdict;
  /** Null when nothing was reviewed (the change is empty, or an advisory reviewer failed). */
  review: ReviewResult | null;
  /** The issues for the coder when the verdict is retry; null otherwise. */
  errorContext: ErrorContext | null;
  usage: Usage;
}

export interface HandoffInput {
  state: CodingState;
  iterations: IterationRecord[];
  reason: string;
}
export interface HandoffOutput {
  handoffPath: string;
}

export function initialContext(input: RunInput): RunContext {
  return {
    stateId: input.stateId,
    userRequest: input.userRequest,
    workflow: input.workflow,
    createdAt: input.createdAt,
    spec: null,
    plan: null,
    planFeedback: null,
    codeDiffs: [],
    coderSummary: '',
    approvedEdits: [],
    rejections: null,
    guidance: null,
    baseline: null,
    buildResult: null,
    testResult: null,
    errorContext: null,
    passed: false,
    iterationCount: 0,
    maxIterations: input.workflow.maxIterations,
    iterations: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    handoffPath: null,
    error: null,
    helpRequest: null,
    attempts: [],
    gatesReached: [],
  };
}

/**
 * The usage a failed step reports with its error (AgentExecutionError puts it in `details.usage`),
 * so a failure still counts what it spent. Null when there is none or it is not a Usage.
 */
export function usageCarriedBy(error: unknown): Usage | null {
  if (typeof error !== 'object' || error === null) return null;
  const details = (error as { details?: unknown }).details;
  if (typeof details !== 'object' || details === null) return null;
  const usage = (details as { usage?: unknown }).usage;
  return isUsage(usage) ? usage : null;
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd'] as const;

function isUsage(value: unknown): value is Usage {
  if (typeof value !== 'object' || value === null) return false;
  return USAGE_FIELDS.every((field) => Number.isFinite((value as Record<string, unknown>)[field]));
}
