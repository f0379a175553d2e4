// What the agent is doing, as it happens: the live activity of a run. The trace (trace.ts) is the
// record written to events.jsonl; activity is for the person watching now — the model's words as
// they stream, each tool call as one human line with its outcome, and the run's cost after every
// model call. Defined once here; the agents emit it, the orchestrator hands it to the faces (CLI
// stderr, the output channel, the panel). Nothing of it is persisted.

import type { Usage } from './model';

export type ActivityEvent =
  /** A model call began (turn counts model calls of this agent's step, from 1). */
  | { kind: 'turn_start'; runId: string; agent: string; turn: number }
  /** Streamed words of the current turn since the last `text` event (throttled, so several deltas at once). */
  | { kind: 'text'; runId: string; agent: string; turn: number; text: string }
  /** The turn's answer is in: its whole text (clipped) and what this call cost. */
  | { kind: 'turn_end'; runId: string; agent: string; turn: number; text: string; usage: Usage; durationMs: number }
  /** One tool call, said as a person would (`read src/X.cs lines 1–40 of 120`), with its outcome. */
  | {
      kind: 'tool';
      runId: string;
      agent: string;
      turn: number;
      tool: string;
      line: string;
      ok: boolean;
      /** The call's arguments and its answer (clipped, secrets masked), shown when the person expands the line. */
      detail?: string;
    }
  /** The run's tokens and cost so far, the step in flight included (after every model call). */
  | { kind: 'usage'; runId: string; usage: Usage };

export type ActivityKind = ActivityEvent['kind'];

type WithoutRunId<E> = E extends unknown ? Omit<E, 'runId'> : never;
/** An event as an agent reports it: the sink made for the run adds the run's id. */
export type ActivityReport = WithoutRunId<ActivityEvent>;

/** Where an agent reports its activity (made per run by the orchestrator). */
export interface ActivitySink {
  emit(event: ActivityReport): void;
}

export type ActivityListener = (event: ActivityEvent) => void;

/** Limits that keep a flood of words from reaching a terminal or a webview. */
export const ACTIVITY_LIMITS = {
  /** Streamed text events per second per run, at most. */
  textEventsPerSecond: 10,
  /** A turn's text as carried by `turn_end` (the head of it; the trace has none, the conversation has all). */
  turnTextChars: 4000,
  /** One `text` event's words. */
  deltaChars: 4000,
  /** A tool line. */
  lineChars: 300,
  /** A tool call's arguments and answer together, as the expanded line shows them. */
  detailChars: 4000,
} as const;
