// The data that flows through a run. These shapes are public (README.md): `--json` prints
// CodingState, state.json keeps it, the webview renders it. Everything here is plain JSON so a
// snapshot can be written, read back and resumed.

// The nodes are declared once, in the node table (nodes.ts); these are the public names for them.
import { WORKFLOW_NODES, nodesOfKind } from './nodes';
import type { WorkflowNode } from './nodes';
export { WORKFLOW_NODES };
export type { WorkflowNode };

export const TERMINAL_NODES: readonly WorkflowNode[] = nodesOfKind('terminal');

export type ActionType = 'CREATE' | 'MODIFY' | 'DELETE' | 'REFACTOR';
export type Complexity = 'LOW' | 'MEDIUM' | 'HIGH';

export interface PlanStep {
  number: number;
  description: string;
  actionType: ActionType;
  filePath: string;
  rationale: string;
}

export interface ExecutionPlan {
  summary: string;
  steps: PlanStep[];
  affectedFiles: string[];
  complexity: Complexity;
  /**
   * Tests that already failed before any edit and that this plan leaves alone, because the request
   * is not about them. The person sees them in the plan; they do not block SUCCESS. Absent (the
   * default) means every test must pass, baseline failures included.
   */
  knownFailures?: string[];
  /**
   * The work in phases, run one at a time in dependency order, each with its own iteration budget
   * (plan-phases.ts). When present, `steps` and `affectedFiles` are every phase's, in order. Absent:
   * the plan is one phase.
   */
  phases?: PlanPhase[];
}

/** One phase of a plan: its own steps and budget, started once every phase it depends on is complete. */
export interface PlanPhase {
  id: string;
  name: string;
  description: string;
  /** Ids of the phases that must be complete before this one starts. */
  dependencies: string[];
  /** This phase's iteration budget; capped by the run's. Absent: the run's. */
  maxIterations?: number;
  steps: PlanStep[];
  affectedFiles: string[];
}

export type PhaseStatus = 'pending' | 'running' | 'complete' | 'error';

/** Where a phase of the run stands (CodingState `phases`). */
export interface PhaseState {
  phaseId: string;
  name: string;
  status: PhaseStatus;
  iterationsRun: number;
  /** The phase's iteration budget (its plan's, capped by the run's, plus what a person added). */
  maxIterations: number;
  startedAt: string | null;
  endedAt: string | null;
  /** The git worktree the phase ran in, when it ran in one of its own. */
  worktree?: string;
  /** What the phase did, for the phases after it and the hand-off. */
  handoff?: string;
  error?: string;
}

/** What a phase's coder is told of its place in the plan: its own phase and what the completed ones did. */
export interface PhaseBrief {
  id: string;
  name: string;
  description: string;
  /** 1-based: the phases complete before it plus one; and how many there are. */
  index: number;
  count: number;
  completed: Array<{ id: string; name: string; handoff: string }>;
}

export type EditType = 'CREATE' | 'MODIFY' | 'DELETE';

/** One proposed (or applied) change to one file. `originalContent` is null for CREATE, `newContent` null for DELETE. */
export interface FileEdit {
  filePath: string;
  type: EditType;
  originalContent: string | null;
  newContent: string | null;
  /** Unified diff (from the `diff` package, or a whole-file diff when the diff would be too costly). */
  diffText: string;
}

export interface CompilationDiagnostic {
  code: string;
  message: string;
  /** Workspace-relative when inside the workspace; null for errors with no file (e.g. MSB1009). */
  filePath: string | null;
  line: number;
  column: number;
  /** The project that reported it, when MSBuild says so. */
  project?: string;
  /** Set by the validator on a validation's errors: the baseline build had the same one (file, code and message). */
  preExisting?: boolean;
}
export type CompilationError = CompilationDiagnostic;
export type CompilationWarning = CompilationDiagnostic;

export interface BuildResult {
  success: boolean;
  errors: CompilationError[];
  warnings: CompilationWarning[];
  durationMs: number;
  /** Set when the build was killed at its time limit. */
  timedOut?: boolean;
  /** The tail of the build output, for messages that parsed into no diagnostic. */
  outputTail?: string;
}

export interface TestFailure {
  testName: string;
  message: string;
  stackTrace: string;
  /** True when the same test already failed in the INIT baseline. */
  preExisting?: boolean;
}

export interface TestResult {
  success: boolean;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: TestFailure[];
  durationMs: number;
  timedOut?: boolean;
  outputTail?: string;
  /**
   * Target frameworks of multi-targeted test projects that were not tested here, each with why
   * (e.g. "Units.Tests net8.0 (the .NET 8.0 runtime is not installed (installed: 10.0.12))").
   */
  skippedFrameworks?: string[];
  /**
   * Failures left out of `failures`: in a saved state and a `--json` line the list is capped (the first
   * ones, messages and stacks shortened), and every failure in full is in `resultsFile`. Absent: none left out.
   */
  failuresOmitted?: number;
  /** Workspace-relative path of this validation's full results (every failure, whole message and stack). */
  resultsFile?: string;
  /** The failures compared with the baseline: new, baseline failures still failing, baseline failures now passing. */
  split?: { new: number; still: number; fixed: number };
  /**
   * True when only the tests that failed last time were run (failing-first) and one still failed:
   * the other tests were not run, so the counts are of those alone. Absent: every test in scope ran.
   */
  onlyLastFailures?: true;
}

/** Failures a saved list shows plus those it left out: the number to say "… and N more" from. */
export function failuresIn(test: TestResult): number {
  return test.failures.length + (test.failuresOmitted ?? 0);
}

/** Build and tests before any edit, so failures that were already there are never blamed on the agent. */
export interface Baseline {
  build: BuildResult;
  test: TestResult | null;
  capturedAt: string;
  /**
   * Workspace-relative test project → the tests that ran in it (passed or failed). A later run of that
   * project is held to the list: a test on it that is skipped or missing counts as failing. Kept in
   * the run's baseline.json only (the state's copy leaves it out); absent in runs persisted before.
   */
  ranTests?: Record<string, string[]>;
}

/** What the coder is told after a failed validation: structured, and capped in size. */
export interface ErrorContext {
  iteration: number;
  /** A compact rendering (≈4k tokens at most) handed to the model as-is. */
  text: string;
  newBuildErrors: CompilationError[];
  newTestFailures: TestFailure[];
  preExistingFailures: string[];
  /** New failures left out of `newTestFailures` (the list is capped); all are in the test result's `resultsFile`. */
  newTestFailuresOmitted?: number;
  /** Names left out of `preExistingFailures` (the list is capped). */
  preExistingFailuresOmitted?: number;
  /** Hunks or files the person rejected, with their reasons. */
  rejections?: string;
  /** Guidance typed by the person at WAIT_HUMAN or with a rejection. */
  guidance?: string;
  /** What found the problems: the build and tests (absent) or the reviewer (`review`). */
  source?: 'validation' | 'review';
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  /**
   * Set when some call was to a model with no known price: costUsd then counts only the priced
   * calls, and is shown as "cost unknown" rather than as a figure that would be wrong.
   */
  costUnknown?: true;
}

export const EMPTY_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e6) / 1e6,
    ...(a.costUnknown || b.costUnknown ? { costUnknown: true as const } : {}),
  };
}

/** One attempt of the coder, kept for the hand-off. */
export interface IterationRecord {
  iteration: number;
  summary: string;
  files: string[];
  buildOk: boolean;
  newErrors: number;
  newFailures: number;
  outcome: string;
}

export interface CodingState {
  stateId: string;
  userRequest: string;
  spec: string | null;
  plan: ExecutionPlan | null;
  codeDiffs: FileEdit[];
  buildResult: BuildResult | null;
  testResult: TestResult | null;
  baseline: Baseline | null;
  errorContext: ErrorContext | null;
  iterationCount: number;
  maxIterations: number;
  currentNode: WorkflowNode;
  timestamp: string;
  usage: Usage;
  metadata: Record<string, unknown>;
  /** The plan's phases and where each stands; absent until a plan is approved (a plan with steps is one phase). */
  phases?: PhaseState[];
  /** The reviewer's last verdict on the run's change (contracts.md, Reviewer); absent until a review ran. */
  review?: ReviewResult | null;
}

/** How a review weighs: required blocks SUCCESS until it passes, advisory is only shown, off skips it. */
export type ReviewMode = 'required' | 'advisory' | 'off';
export const REVIEW_MODES: readonly ReviewMode[] = ['required', 'advisory', 'off'];
export const DEFAULT_REVIEW_THRESHOLD = 8;

export type ReviewSeverity = 'critical' | 'major' | 'minor';

export interface ReviewIssue {
  severity: ReviewSeverity;
  /** Workspace-relative. */
  file: string;
  line?: number;
  description: string;
  suggestedFix?: string;
}

/** The reviewer's submit_review, and whether it passed: score ≥ threshold with no critical issue. */
export interface ReviewResult {
  score: number;
  criticalIssues: ReviewIssue[];
  suggestions: string[];
  pass: boolean;
}

export type PlanApprovalPolicy = 'always' | 'never';
export type DiffApprovalPolicy = 'always' | 'first' | 'never';

/** Everything a run needs to know about where and how it runs. Plain JSON: it is persisted. */
export interface WorkflowContext {
  workspaceRoot: string;
  maxIterations: number;
  /** Overrides the model of every agent (the CLI's --model). */
  model?: string;
  /**
   * Overrides the provider of every agent (the CLI's --provider): a name of llm/providers/registry.ts,
   * checked where it comes in. Each agent.yaml's, else Anthropic, when absent.
   */
  provider?: string;
  /** Who answers for the model, kept with the run so a resume uses the same: 'demo' (the CLI's --demo), else `provider`. */
  modelProvider?: string;
  approval: { plan: PlanApprovalPolicy; diffs: DiffApprovalPolicy };
  timeouts: { buildMs: number; testMs: number };
  /**
   * How long an agent may be silent (no model output, no tool call) before the supervisor stops it
   * (--agent-timeout, "ironbees.agentTimeoutSeconds"). Each role's default (agents/supervisor/policy.ts) when absent.
   */
  agentTimeoutMs?: number;
  /** The solution or project to build and test, workspace-relative; found automatically when absent. */
  target?: string;
  /** Where model calls go when the primary provider is out (--fallback-provider, --fallback-model). */
  fallback?: { provider: string; model: string };
  /** The least time between two model calls, in ms (--min-call-interval): a resume keeps the pace. */
  minCallIntervalMs?: number;
  /** Per-run budgets (--max-cost, --max-tokens, --max-minutes); reaching one escalates. None when absent. */
  budget?: { maxCostUsd?: number; maxTokens?: number; maxMinutes?: number };
  /** Files whose text every agent gets as instructions, beside AGENTS.md (--context, "ironbees.contextFiles"). */
  contextFiles?: string[];
  /** --sandbox (sandbox.ts): kept with the run so a resume builds and tests the same way. Absent = auto. */
  sandbox?: 'auto' | 'on' | 'off';
  /**
   * --review and --review-threshold. Each face sets it (default required, 8); absent (a run persisted
   * before reviews, a caller that does not ask for one) = off, so such a run goes on as it started.
   */
  review?: { mode: ReviewMode; threshold: number };
  /** --parallel N: at most N phases whose dependencies are complete run at once, each in a git worktree. One at a time when absent. */
  parallel?: number;
  /** A phase run in a worktree of its own (workflow/parallel-phases.ts): its plan, given by the run that planned it; no planner runs. */
  givenPlan?: {
    spec: string;
    plan: ExecutionPlan;
    /** The planning run's baseline in full (its validations/baseline.json): the phase compares with it instead of capturing its own. */
    baselineFile?: string;
  };
}

export const DEFAULT_MAX_ITERATIONS = 5;

/** The person's answer to a human gate. */
export type ApprovalDecision =
  | {
      type: 'APPROVE';
      editedPlan?: ExecutionPlan;
      files?: FileDecision[];
      /**
       * A standing approval given up front (the CLI's `--yes`), not a person reading this plan: the
       * plan's `knownFailures` then excuse nothing (`--accept-known-failures` is the person's way to accept them).
       */
      unattended?: boolean;
    }
  | { type: 'REJECT'; feedback: string }
  | {
      type: 'CONTINUE';
      guidance: string;
      additionalIterations: number;
      budget?: { maxCostUsd?: number; maxTokens?: number; maxMinutes?: number };
    }
  | { type: 'STOP' };

/** Per-file verdict on proposed diffs. Files not listed are accepted. */
export interface FileDecision {
  filePath: string;
  accepted: boolean;
  /** Indexes (0-based, in diffText order) of hunks rejected within an otherwise accepted file. */
  rejectedHunks?: number[];
  reason?: string;
  /**
   * A reason per rejected hunk (hunk index → why), when the person gave one for that hunk alone;
   * `reason` still covers the hunks without one. Keys are strings once persisted as JSON.
   */
  hunkReasons?: Record<number, string>;
}
