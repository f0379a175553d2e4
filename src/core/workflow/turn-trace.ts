// The per-turn trace: one `turn` line in events.jsonl per model call of an agent, built
// from the events the tool loop already records. A step's trace sink is wrapped: a `model_call` opens
// a turn, the `tool_call`s after it are its calls, and the next `model_call` (or the step's end) closes
// it. Why here and not in the tool loop: the loop stays as it is, and the step knows what the loop does
// not (the run's trace id, the step, the iteration, the run's policy).

import { AgentModeError, errorMessage } from '../errors';
import { createHash } from 'node:crypto';
import type { Usage, WorkflowContext, WorkflowNode } from '../model';
import type { TraceEvent, TraceSink, TurnEvent, TurnPolicy, TurnToolCall } from '../trace';
import type { AgentCatalog } from '../agents/loader';
import { DEFAULT_MAX_MALFORMED, DEFAULT_TURN_BUDGET } from '../agents/agent-definition';
import { providerOfRun } from '../llm/providers/choice';

type ModelCallEvent = Extract<TraceEvent, { kind: 'model_call' }>;
type ToolCallEvent = Extract<TraceEvent, { kind: 'tool_call' }>;

/** The last run's trace id: every step of a run (and its spans) asks again for the same one. */
let lastTraceId: { runId: string; traceId: string } | null = null;

/** The run's trace id: 32 hex digits (an OTLP trace id), the same for every process that touches the run. */
export function traceIdOf(runId: string): string {
  if (lastTraceId?.runId !== runId) {
    lastTraceId = { runId, traceId: createHash('sha256').update(`ironbees-run:${runId}`).digest('hex').slice(0, 32) };
  }
  return lastTraceId.traceId;
}

export interface TurnTraceContext {
  runId: string;
  step: WorkflowNode;
  iteration: number;
  workflow: WorkflowContext;
  /** The agent's limits (toolConfig), looked up by the name on its model calls. */
  agentLimits(agent: string): { maxTurns: number; maxMalformed: number; terminalTool?: string };
  /** The provider the agent's calls go to (for the record; the model is on each call). */
  providerOf(agent: string): string;
}

/** The context of a PLAN or CODE step: limits and provider from the agents as the run chooses them. */
export function stepTurnContext(
  agents: AgentCatalog,
  input: { stateId: string; workflow: WorkflowContext },
  step: WorkflowNode,
  iteration: number,
  terminalTool: string,
): TurnTraceContext {
  const { workflow } = input;
  return {
    runId: input.stateId,
    step,
    iteration,
    workflow,
    agentLimits: (name) => {
      const config = agents.get(name)?.toolConfig;
      return {
        maxTurns: config?.turnBudget ?? DEFAULT_TURN_BUDGET,
        maxMalformed: config?.maxMalformed ?? DEFAULT_MAX_MALFORMED,
        terminalTool,
      };
    },
    providerOf: (name) => providerOfRun(name, agents.get(name)?.llmConfig, workflow),
  };
}

interface OpenTurn {
  model: ModelCallEvent;
  startedAt: number;
  calls: ToolCallEvent[];
}

/**
 * Runs `step` with a sink that also writes the step's turns. The last turn is written when the step
 * settles: `done` when it returned, `failed` or `cancelled` with the error when it threw.
 */
export async function withTurnTrace<T>(trace: TraceSink, context: TurnTraceContext, step: (trace: TraceSink) => Promise<T>): Promise<T> {
  const recorder = new TurnRecorder(trace, context);
  try {
    const value = await step(recorder.sink);
    recorder.close({ status: 'done' });
    return value;
  } catch (error) {
    const cancelled = error instanceof AgentModeError && error.code === 'CANCELLED';
    recorder.close({ status: cancelled ? 'cancelled' : 'failed', error: errorMessage(error).slice(0, 500) });
    throw error;
  }
}

class TurnRecorder {
  private open: OpenTurn | null = null;
  private turns = 0;
  private lastNeedsRepair = false;
  /** The same for every turn of the step: worked out once (a hash, a model choice), not per turn. */
  private readonly traceId: string;
  private readonly providers = new Map<string, string>();

  readonly sink: TraceSink = {
    record: (event: TraceEvent): void => {
      if (event.kind === 'model_call') {
        this.close(null);
        this.open = { model: event, startedAt: Date.parse(event.at) - event.durationMs, calls: [] };
      } else if (event.kind === 'tool_call' && this.open && event.agent === this.open.model.agent) {
        this.open.calls.push(event);
      }
      this.trace.record(event);
    },
  };

  constructor(
    private readonly trace: TraceSink,
    private readonly context: TurnTraceContext,
  ) {
    this.traceId = traceIdOf(context.runId);
  }

  /** Writes the open turn: `end` null when the conversation goes on (another model call came). */
  close(end: { status: 'done' | 'failed' | 'cancelled'; error?: string } | null): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    this.turns += 1;
    const agent = open.model.agent;
    let provider = this.providers.get(agent);
    if (provider === undefined) this.providers.set(agent, (provider = this.context.providerOf(agent)));
    const event = buildTurn(open, { turn: this.turns, retry: this.lastNeedsRepair, traceId: this.traceId, provider }, this.context, end);
    this.lastNeedsRepair = event.outcome.status === 'malformed' || event.tool_calls.some((call) => !call.tool_result.ok);
    this.trace.record(event);
  }
}

function buildTurn(
  open: OpenTurn,
  { turn, retry, traceId, provider }: { turn: number; retry: boolean; traceId: string; provider: string },
  context: TurnTraceContext,
  end: { status: 'done' | 'failed' | 'cancelled'; error?: string } | null,
): TurnEvent {
  const agent = open.model.agent;
  const limits = context.agentLimits(agent);
  const calls = open.calls.map(toTurnToolCall);
  const endedAt = Math.max(Date.parse(open.model.at), ...open.calls.map((call) => Date.parse(call.at)));
  const intent: TurnEvent['intent'] =
    calls.length === 0
      ? open.model.stopReason === 'refusal'
        ? 'refuse'
        : 'answer_text'
      : calls.some((call) => call.tool_call.name === limits.terminalTool)
        ? 'submit'
        : 'call_tool';
  const malformed = calls.length === 0 || calls.some((call) => !call.tool_call.args_valid);
  const status: TurnEvent['outcome']['status'] = end ? end.status : malformed ? 'malformed' : 'continue';
  return {
    kind: 'turn',
    at: new Date(endedAt).toISOString(),
    trace_id: traceId,
    step: context.step,
    iteration: context.iteration,
    turn,
    role: agent,
    intent,
    provider,
    model: open.model.model,
    stop_reason: open.model.stopReason,
    tool_calls: calls,
    policy: policyOf(context.workflow, limits),
    outcome: { status, next_action: end ? 'end_step' : 'call_model', ...(end?.error ? { error: end.error } : {}) },
    retry,
    timings: {
      latency_ms: Math.max(0, endedAt - open.startedAt),
      model_ms: open.model.durationMs,
      tools_ms: open.calls.reduce((sum, call) => sum + call.durationMs, 0),
    },
    tokens: tokensOf(open.model.usage),
  };
}

/**
 * Arguments are invalid when the tool is unknown or its schema refused them (the registry says
 * InvalidInput, NotFound for an unknown name). `err` is the taxonomy kind, "None" when ok.
 */
function toTurnToolCall(call: ToolCallEvent): TurnToolCall {
  const err = call.ok ? 'None' : (call.failureKind ?? 'Refused');
  const unknownTool = call.failureKind === 'NotFound' && (call.error ?? '').startsWith('Unknown tool');
  return {
    tool_call: { name: call.tool, args_valid: !(call.failureKind === 'InvalidInput' || unknownTool) },
    tool_result: { ok: call.ok, err, schema_ok: call.ok },
    latency_ms: call.durationMs,
  };
}

function policyOf(workflow: WorkflowContext, limits: { maxTurns: number; maxMalformed: number }): TurnPolicy {
  const budget = workflow.budget;
  return {
    max_turns: limits.maxTurns,
    max_malformed: limits.maxMalformed,
    max_iterations: workflow.maxIterations,
    approvals: { plan: workflow.approval.plan, diffs: workflow.approval.diffs },
    ...(budget && Object.keys(budget).length > 0
      ? {
          budget: {
            ...(budget.maxCostUsd !== undefined ? { max_cost_usd: budget.maxCostUsd } : {}),
            ...(budget.maxTokens !== undefined ? { max_tokens: budget.maxTokens } : {}),
            ...(budget.maxMinutes !== undefined ? { max_minutes: budget.maxMinutes } : {}),
          },
        }
      : {}),
  };
}

function tokensOf(usage: Usage): TurnEvent['tokens'] {
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cache_read: usage.cacheReadTokens,
    cache_write: usage.cacheWriteTokens,
    cost_usd: usage.costUsd,
  };
}
