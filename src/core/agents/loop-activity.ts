// The tool loop's live activity (core/activity.ts): each model call's words as they stream,
// throttled to at most ACTIVITY_LIMITS.textEventsPerSecond text events (pieces that arrive sooner
// are joined and sent together), the turn's whole text and cost when its answer is in, and a line
// per tool call. Kept apart from the loop so the loop's own code only says when things happen.

import type { ActivitySink } from '../activity';
import { ACTIVITY_LIMITS } from '../activity';
import type { ModelResponse, ToolUseBlock } from '../llm/port';
import { clip } from '../platform/text';
import type { ToolOutcome } from '../tools/types';
import { describeToolCall, describeToolDetail } from './activity-lines';

const TEXT_INTERVAL_MS = 1000 / ACTIVITY_LIMITS.textEventsPerSecond;

export class LoopActivity {
  private pending = '';
  private lastTextAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private turn = 0;
  private startedAt = 0;

  constructor(
    private readonly sink: ActivitySink | undefined,
    private readonly agent: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A model call begins; the request's `onText` (none when nobody listens, so providers need not stream words). */
  turnStarted(turn: number): { onText?: (delta: string) => void } {
    this.stopTimer();
    this.pending = '';
    this.turn = turn;
    this.startedAt = this.now();
    if (!this.sink) return {};
    this.sink.emit({ kind: 'turn_start', agent: this.agent, turn });
    return { onText: (delta) => this.onText(turn, delta) };
  }

  /** The answer is in: words not yet sent are in its whole text, which `turn_end` carries. */
  turnEnded(response: ModelResponse): void {
    this.stopTimer();
    this.pending = '';
    if (!this.sink) return;
    const text = response.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .filter((part) => part !== '')
      .join('\n');
    this.sink.emit({
      kind: 'turn_end',
      agent: this.agent,
      turn: this.turn,
      text: clip(text, ACTIVITY_LIMITS.turnTextChars),
      usage: response.usage,
      durationMs: Math.max(0, this.now() - this.startedAt),
    });
  }

  /** For runToolCalls: each call's line once its outcome is known (undefined when nobody listens). */
  get onToolDone(): ((call: ToolUseBlock, outcome: ToolOutcome) => void) | undefined {
    const sink = this.sink;
    if (!sink) return undefined;
    const turn = this.turn;
    return (call, outcome) =>
      sink.emit({
        kind: 'tool',
        agent: this.agent,
        turn,
        tool: call.name,
        line: describeToolCall(call.name, call.input, outcome),
        ok: outcome.ok,
        detail: describeToolDetail(call.input, outcome),
      });
  }

  private onText(turn: number, delta: string): void {
    if (turn !== this.turn || delta === '') return;
    this.pending += delta;
    const wait = this.lastTextAt + TEXT_INTERVAL_MS - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, wait);
      this.timer.unref?.();
    }
  }

  private flush(): void {
    if (!this.sink || this.pending === '') return;
    const text = clip(this.pending, ACTIVITY_LIMITS.deltaChars);
    this.pending = '';
    this.lastTextAt = this.now();
    this.sink.emit({ kind: 'text', agent: this.agent, turn: this.turn, text });
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
