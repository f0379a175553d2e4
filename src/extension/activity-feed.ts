// The live activity of the run the panel shows, as the list under its current step: model turns
// (their words as they stream, folded once the answer is in) and tool calls with their outcome.
// A new run, or an agent's first turn (a planner or coder step begins), starts the list afresh;
// what a step did stays shown while the run waits at the gate after it. The step's start is read
// from the activity itself, not from the run's state: the state of a transition may arrive after
// the first turns of the step it enters. Posts only what changed (an entry added or updated), and the
// whole list when it starts over, within the protocol's limits. No vscode import: unit-tested.

import type { ActivityEvent } from '../core/activity';
import type { CodingState } from '../core/model';
import type { ActivityEntry, ActivityMessage } from '../shared/protocol';
import { ACTIVITY_PANEL_LIMITS } from '../shared/protocol';

export class ActivityFeed {
  private runId: string | null = null;
  private entries: ActivityEntry[] = [];
  private nextId = 1;

  constructor(private readonly post: (message: ActivityMessage) => void) {}

  /** The panel's run changed state: another run than the listed one clears the list. */
  onState(state: CodingState | null): void {
    if (!state || state.stateId === this.runId) return;
    this.runId = state.stateId;
    this.startOver();
  }

  onEvent(event: ActivityEvent): void {
    if (event.runId !== this.runId) return;
    switch (event.kind) {
      case 'turn_start':
        if (event.turn === 1) this.startOver();
        this.add({ kind: 'turn', agent: event.agent, turn: event.turn, text: '', done: false, ok: true });
        return;
      case 'text': {
        const open = this.openTurn(event.agent, event.turn);
        if (open) this.update({ ...open, text: clip(open.text + event.text) });
        return;
      }
      case 'turn_end': {
        const open = this.openTurn(event.agent, event.turn);
        const done = { text: clip(event.text), done: true, usage: event.usage };
        if (open) this.update({ ...open, ...done });
        else this.add({ kind: 'turn', agent: event.agent, turn: event.turn, ok: true, ...done });
        return;
      }
      case 'tool':
        this.add({
          kind: 'tool',
          agent: event.agent,
          turn: event.turn,
          text: clip(event.line),
          done: true,
          ok: event.ok,
          ...(event.detail ? { detail: clip(event.detail) } : {}),
        });
        return;
      case 'usage':
        // The run's usage reaches the panel with its state (RunController).
        return;
    }
  }

  /** The whole list, for a panel that just said `ready` (null before any run). */
  snapshot(): ActivityMessage | null {
    return this.runId ? { type: 'activity', runId: this.runId, reset: true, entries: [...this.entries] } : null;
  }

  private startOver(): void {
    this.entries = [];
    this.post({ type: 'activity', runId: this.runId as string, reset: true, entries: [] });
  }

  private openTurn(agent: string, turn: number): ActivityEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry.kind === 'turn' && !entry.done && entry.agent === agent && entry.turn === turn) return entry;
    }
    return undefined;
  }

  private add(fields: Omit<ActivityEntry, 'id' | 'agent' | 'turn'> & { agent: string; turn: number }): void {
    const entry: ActivityEntry = {
      id: this.nextId++,
      ...fields,
      agent: fields.agent.slice(0, ACTIVITY_PANEL_LIMITS.agent),
      turn: Math.min(Math.max(fields.turn, 0), ACTIVITY_PANEL_LIMITS.turn),
    };
    this.entries.push(entry);
    if (this.entries.length > ACTIVITY_PANEL_LIMITS.entries) {
      // The oldest go; the panel is sent the list as it is now.
      this.entries = this.entries.slice(-ACTIVITY_PANEL_LIMITS.entries);
      this.post({ type: 'activity', runId: this.runId as string, reset: true, entries: [...this.entries] });
      return;
    }
    this.post({ type: 'activity', runId: this.runId as string, reset: false, entries: [entry] });
  }

  private update(entry: ActivityEntry): void {
    const index = this.entries.findIndex((candidate) => candidate.id === entry.id);
    if (index < 0) return;
    this.entries[index] = entry;
    this.post({ type: 'activity', runId: this.runId as string, reset: false, entries: [entry] });
  }
}

/** Streamed words past the limit: the newest are what the person is reading. */
function clip(text: string): string {
  const max = ACTIVITY_PANEL_LIMITS.text;
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}
