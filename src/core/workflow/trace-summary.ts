// What a run's turns add up to (the key metrics): turns per step, p95 tool latency, the
// error kinds, the retries, tokens and cost. Read by `ironbees trace` and the panel's turn view, so
// both say the same numbers.

import type { TraceEvent, TurnEvent } from '../trace';

/** A step of the run as the turns see it: PLAN or CODE at an iteration. */
export interface TraceStep {
  /** "PLAN", "CODE 1", "CODE 2": the step and, for CODE, its iteration. */
  label: string;
  step: string;
  iteration: number;
  turns: TurnEvent[];
}

export interface TraceSummary {
  traceId: string | null;
  turns: number;
  /** Steps in the order they ran, each with its turn count. */
  turnsPerStep: Array<{ label: string; turns: number }>;
  toolCalls: number;
  failedToolCalls: number;
  /** Nearest-rank 95th percentile of the tool calls' latencies, in ms; null when there were none. */
  p95ToolLatencyMs: number | null;
  /** Failed tool calls by kind (InvalidInput, NotFound, Refused …), most frequent first. */
  errorKinds: Array<{ kind: string; count: number }>;
  /** Turns that followed a failed tool call or a malformed answer. */
  retries: number;
  malformedTurns: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number };
}

export function turnsOf(events: readonly TraceEvent[]): TurnEvent[] {
  return events.filter((event): event is TurnEvent => event.kind === 'turn');
}

export function stepLabel(turn: Pick<TurnEvent, 'step' | 'iteration'>): string {
  return turn.step === 'CODE' ? `CODE ${turn.iteration}` : turn.step;
}

/** The turns grouped by step, a new group whenever the step changes or a turn 1 starts a new conversation. */
export function groupBySteps(turns: readonly TurnEvent[]): TraceStep[] {
  const steps: TraceStep[] = [];
  for (const turn of turns) {
    const label = stepLabel(turn);
    const last = steps.at(-1);
    if (last && last.label === label && turn.turn > 1) last.turns.push(turn);
    else steps.push({ label, step: turn.step, iteration: turn.iteration, turns: [turn] });
  }
  return steps;
}

/** Nearest-rank percentile: the smallest value with at least p% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarizeTurns(turns: readonly TurnEvent[]): TraceSummary {
  const calls = turns.flatMap((turn) => turn.tool_calls);
  const kinds = new Map<string, number>();
  for (const call of calls) {
    if (!call.tool_result.ok) kinds.set(call.tool_result.err, (kinds.get(call.tool_result.err) ?? 0) + 1);
  }
  const steps = groupBySteps(turns);
  return {
    traceId: turns[0]?.trace_id ?? null,
    turns: turns.length,
    turnsPerStep: steps.map((step) => ({ label: step.label, turns: step.turns.length })),
    toolCalls: calls.length,
    failedToolCalls: calls.filter((call) => !call.tool_result.ok).length,
    p95ToolLatencyMs: percentile(
      calls.map((call) => call.latency_ms),
      95,
    ),
    errorKinds: [...kinds].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    retries: turns.filter((turn) => turn.retry).length,
    malformedTurns: turns.filter((turn) => turn.outcome.status === 'malformed').length,
    tokens: turns.reduce(
      (sum, turn) => ({
        input: sum.input + turn.tokens.input,
        output: sum.output + turn.tokens.output,
        cacheRead: sum.cacheRead + turn.tokens.cache_read,
        cacheWrite: sum.cacheWrite + turn.tokens.cache_write,
        costUsd: sum.costUsd + turn.tokens.cost_usd,
      }),
      { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 },
    ),
  };
}
