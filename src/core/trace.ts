// The orchestrator's public face (ARCHITECTURE.md, "The flow of a request"). The CLI and
// the extension drive runs only through this.

import type { ApprovalDecision, CodingState, Usage, WorkflowContext, WorkflowNode } from './model';
import type { ToolErrorKind } from './errors';
import type { ActivityListener } from './activity';

export interface Orchestrator {
  /**
   * Starts a run; yields a CodingState after every transition and ends at a terminal node. `runId`:
   * the id the caller chose (RunStore.newRunId's form), when it names things before the run starts.
   */
  execute(request: string, context: WorkflowContext, signal?: AbortSignal, runId?: string): AsyncIterable<CodingState>;
  /** Answers the human gate the run is waiting at. Throws InvalidStateError when it waits at none. */
  approve(stateId: string, decision: ApprovalDecision): Promise<void>;
  /** Stops a run: it ends CANCELLED, persisted. */
  cancel(stateId: string): Promise<void>;
  /** The latest state, from memory or from disk. Throws StateNotFoundError. */
  getState(stateId: string): Promise<CodingState>;
  /** Continues a persisted run from where it stopped; the step in flight runs again. */
  resume(stateId: string, signal?: AbortSignal): AsyncIterable<CodingState>;
  /**
   * Someone working on a live run needs a person: a run at PLAN, CODE or VALIDATE stops its step and
   * escalates (hand-off written, then WAIT_HUMAN). False, changing nothing, when the run is not live
   * in this process or is not at a working state (e.g. it already waits for a person).
   */
  requestHelp?(stateId: string, reason: string): Promise<boolean>;
  /**
   * Listens to the live activity of every run of this orchestrator (model words, tool lines, usage
   * after each model call) until the returned function is called. Events carry their run's id.
   */
  onActivity?(listener: ActivityListener): () => void;
}

export interface RunSummary {
  runId: string;
  userRequest: string;
  currentNode: WorkflowNode;
  iterationCount: number;
  maxIterations: number;
  usage: Usage;
  createdAt: string;
  updatedAt: string;
  /** When the run's changes were reverted (its state's `metadata.revertedAt`); absent if never. */
  revertedAt?: string;
  /** How many of the plan's phases are in each status; absent before a plan was approved. */
  phases?: PhaseCounts;
  /** A `run --worktree` run: its branch (`ironbees/<runId>`), and whether it is still at work in its worktree. */
  worktree?: { branch: string; active: boolean };
}

export interface PhaseCounts {
  total: number;
  pending: number;
  running: number;
  complete: number;
  error: number;
}

/** One line of events.jsonl. */
export type TraceEvent =
  | { kind: 'transition'; at: string; from: WorkflowNode | null; to: WorkflowNode; iteration: number }
  | {
      kind: 'model_call';
      at: string;
      agent: string;
      model: string;
      durationMs: number;
      stopReason: string;
      usage: Usage;
    }
  | {
      kind: 'tool_call';
      at: string;
      agent: string;
      tool: string;
      ok: boolean;
      durationMs: number;
      error?: string;
      failureKind?: ToolErrorKind;
    }
  | { kind: 'validation'; at: string; phase: 'baseline' | 'build' | 'test'; ok: boolean; durationMs: number; detail?: string }
  | { kind: 'edit_applied'; at: string; filePath: string; type: string }
  | {
      kind: 'rewind';
      at: string;
      checkpoint: string;
      label: string;
      fromNode: WorkflowNode;
      fromIteration: number;
      files: string[];
      forced: boolean;
    }
  /** The pre-review compile check of the coder's staged edits (round 1 is the first submission). */
  | { kind: 'compile_check'; at: string; round: number; ok: boolean; errors: number; durationMs: number; detail?: string }
  | { kind: 'error'; at: string; message: string }
  | { kind: 'compaction'; at: string; agent: string; estimatedTokensBefore: number; estimatedTokensAfter: number; compactedResults: number }
  | { kind: 'model_fallback'; at: string; agent: string; from: string; to: string; reason: string }
  /** The supervisor stopped an agent silent for `silentMs` (its `timeout`-th time in this step); `action` is what follows. */
  | {
      kind: 'agent_timeout';
      at: string;
      agent: string;
      timeout: number;
      silentMs: number;
      action: 'restart_with_context' | 'restart_reduced_scope' | 'escalate';
    }
  /** The supervisor started the agent again (`attempt` counts from 1): with its progress, or fresh on what remains. */
  | { kind: 'agent_restarted'; at: string; agent: string; attempt: number; mode: 'continuation' | 'reduced_scope'; stagedFiles: string[] }
  | TurnEvent;

/**
 * One model turn of an agent (its field names in snake_case, as the public event schema has them): the
 * model call and the tool calls it asked for, what came of them, the policy in force and what it cost.
 * Written after the turn's `model_call` and `tool_call` lines (which stay, for the tools reading them).
 */
export interface TurnEvent {
  kind: 'turn';
  at: string;
  /** The run's trace id (32 hex digits, derived from the run id): the OTLP export's trace id too. */
  trace_id: string;
  /** The workflow step the turn belongs to (PLAN or CODE) and the run's iteration then. */
  step: WorkflowNode;
  iteration: number;
  /** 1, 2, 3 … within the step's agent conversation. */
  turn: number;
  /** The agent (planner, coder). */
  role: string;
  /** What the model did: called tools, called its terminal tool, answered in text only, or refused. */
  intent: 'call_tool' | 'submit' | 'answer_text' | 'refuse';
  provider: string;
  model: string;
  stop_reason: string;
  tool_calls: TurnToolCall[];
  policy: TurnPolicy;
  outcome: {
    /** continue: results went back to the model; malformed: an answer the loop counts against maxMalformed. */
    status: 'continue' | 'malformed' | 'done' | 'failed' | 'cancelled';
    next_action: 'call_model' | 'end_step';
    error?: string;
  };
  /** This turn follows one whose tool call failed or whose answer was malformed: a repair attempt. */
  retry: boolean;
  timings: { latency_ms: number; model_ms: number; tools_ms: number };
  tokens: { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number };
}

export interface TurnToolCall {
  tool_call: { name: string; args_valid: boolean };
  /** err: the taxonomy kind ("None" when ok; "Refused" when the terminal tool declined the input). schema_ok: the result passed the tool's output check. */
  tool_result: { ok: boolean; err: string; schema_ok: boolean };
  latency_ms: number;
}

/** The limits a turn ran under: the agent's turn budget and malformed limit, the run's iterations, approvals and budgets. */
export interface TurnPolicy {
  max_turns: number;
  max_malformed: number;
  max_iterations: number;
  approvals: { plan: string; diffs: string };
  budget?: { max_cost_usd?: number; max_tokens?: number; max_minutes?: number };
}

export interface TraceSink {
  record(event: TraceEvent): void;
}
