// What the panel shows for a timeline step's turns: per conversation (a step at one iteration), each
// model turn with its agent, tool calls, outcome, duration and tokens. Pure, so it is unit-tested.

import type { TurnEvent } from '../../../src/core/trace';
import type { StepTurnGroup } from '../../../src/shared/protocol';
import { formatCost, formatDuration, formatTokens } from './format';

export interface TurnCallRow {
  key: string;
  name: string;
  ok: boolean;
  /** "12 ms", or the failure: "NotFound · arguments refused · 0 ms". */
  detail: string;
}

export interface TurnRow {
  key: string;
  /** "#2 called tools". */
  title: string;
  outcome: string;
  tone: 'ok' | 'error' | 'warn' | 'neutral';
  duration: string;
  tokens: string;
  calls: TurnCallRow[];
  error: string | null;
}

export interface TurnGroup {
  key: string;
  /** "PLAN", "CODE 2". */
  label: string;
  /** "planner · anthropic/claude-sonnet-4-6 · 3 turns". */
  subtitle: string;
  rows: TurnRow[];
}

const INTENT: Record<TurnEvent['intent'], string> = {
  call_tool: 'called tools',
  submit: 'submitted',
  answer_text: 'answered in text only',
  refuse: 'refused',
};

const TONE: Record<TurnEvent['outcome']['status'], TurnRow['tone']> = {
  done: 'ok',
  continue: 'neutral',
  malformed: 'warn',
  failed: 'error',
  cancelled: 'warn',
};

/** The extension groups the turns by conversation; this says each for the panel. */
export function stepTurnsView(groups: readonly StepTurnGroup[]): TurnGroup[] {
  return groups.map((step, index) => {
    const first = step.turns[0];
    const count = step.turns.length;
    return {
      key: `${index}:${step.label}`,
      label: step.label,
      subtitle: `${first.role} · ${first.provider}/${first.model} · ${count} turn${count === 1 ? '' : 's'}`,
      rows: step.turns.map((turn) => turnRow(turn, index)),
    };
  });
}

function turnRow(turn: TurnEvent, group: number): TurnRow {
  return {
    key: `${group}:${turn.turn}`,
    title: `#${turn.turn} ${INTENT[turn.intent]}${turn.retry ? ' (retry)' : ''}`,
    outcome: turn.outcome.status,
    tone: TONE[turn.outcome.status],
    duration: formatDuration(turn.timings.latency_ms),
    tokens: `${formatTokens(turn.tokens.input)} in · ${formatTokens(turn.tokens.output)} out · ${formatCost(turn.tokens.cost_usd)}`,
    calls: turn.tool_calls.map((call, i) => ({
      key: `${i}:${call.tool_call.name}`,
      name: call.tool_call.name,
      ok: call.tool_result.ok,
      detail: call.tool_result.ok
        ? formatDuration(call.latency_ms)
        : [call.tool_result.err, call.tool_call.args_valid ? null : 'arguments refused', formatDuration(call.latency_ms)]
            .filter(Boolean)
            .join(' · '),
    })),
    error: turn.outcome.error ?? null,
  };
}
