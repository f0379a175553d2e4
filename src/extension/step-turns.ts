// The answer to a click on a timeline step: that step's turns, read from the run's events.jsonl
// (any run of the history, so no "current run" check) and grouped by conversation here, so the
// panel only shows them. A run that cannot be read has no turns.

import type { TraceEvent } from '../core/trace';
import { groupBySteps, turnsOf } from '../core/workflow/trace-summary';
import type { ExtensionMessage, TurnStep } from '../shared/protocol';

export interface TurnSource {
  events(runId: string): Promise<TraceEvent[]>;
}

export async function stepTurnsMessage(store: TurnSource, runId: string, node: TurnStep): Promise<ExtensionMessage> {
  const events = await store.events(runId).catch(() => []);
  const turns = turnsOf(events).filter((turn) => turn.step === node);
  return { type: 'stepTurns', runId, node, groups: groupBySteps(turns).map((step) => ({ label: step.label, turns: step.turns })) };
}
