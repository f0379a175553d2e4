// `ironbees trace` for people: a run's turns, step by step, then what they add up to.

import type { TurnEvent, TurnToolCall } from '../../core/trace';
import type { TraceStep, TraceSummary } from '../../core/workflow/trace-summary';
import type { Colors } from '../terminal';
import { groupDigits } from './numbers';

function ms(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value} ms`;
}

const n = groupDigits;

function renderCall(call: TurnToolCall, colors: Colors): string {
  if (call.tool_result.ok) return `      ${colors.green('✓')} ${call.tool_call.name} ${colors.dim(ms(call.latency_ms))}`;
  const why = call.tool_call.args_valid ? call.tool_result.err : `${call.tool_result.err}, arguments refused`;
  return `      ${colors.red('✗')} ${call.tool_call.name} ${colors.red(why)} ${colors.dim(ms(call.latency_ms))}`;
}

export function renderTurn(turn: TurnEvent, colors: Colors): string[] {
  const status =
    turn.outcome.status === 'done'
      ? colors.green('done')
      : turn.outcome.status === 'continue'
        ? 'continue'
        : colors.yellow(turn.outcome.status);
  const head =
    `  #${turn.turn} ${turn.intent} → ${status}${turn.retry ? ' (retry)' : ''} · ${ms(turn.timings.latency_ms)} ` +
    `(model ${ms(turn.timings.model_ms)}, tools ${ms(turn.timings.tools_ms)}) · ${n(turn.tokens.input)} in / ${n(turn.tokens.output)} out`;
  const lines = [head, ...turn.tool_calls.map((call) => renderCall(call, colors))];
  if (turn.outcome.error) lines.push(`      ${colors.red(turn.outcome.error)}`);
  return lines;
}

export function renderSteps(steps: readonly TraceStep[], colors: Colors): string[] {
  return steps.flatMap((step) => {
    const first = step.turns[0];
    const head = colors.bold(
      `${step.label} · ${first.role} · ${first.provider}/${first.model} · ${step.turns.length} turn${step.turns.length === 1 ? '' : 's'}`,
    );
    return [head, ...step.turns.flatMap((turn) => renderTurn(turn, colors))];
  });
}

export function renderSummary(summary: TraceSummary): string[] {
  const kinds = summary.errorKinds.length ? summary.errorKinds.map((k) => `${k.kind} ${k.count}`).join(', ') : 'none';
  const t = summary.tokens;
  return [
    `Summary${summary.traceId ? ` (trace ${summary.traceId})` : ''}`,
    `  turns: ${summary.turns} — ${summary.turnsPerStep.map((s) => `${s.label} ${s.turns}`).join(', ')}`,
    `  tool calls: ${summary.toolCalls}, ${summary.failedToolCalls} failed · p95 tool latency ${summary.p95ToolLatencyMs === null ? '—' : ms(summary.p95ToolLatencyMs)}`,
    `  error kinds: ${kinds}`,
    `  retries: ${summary.retries} · malformed turns: ${summary.malformedTurns}`,
    `  tokens: ${n(t.input)} in / ${n(t.output)} out (cache ${n(t.cacheRead)} read, ${n(t.cacheWrite)} written) · $${t.costUsd.toFixed(4)}`,
  ];
}
