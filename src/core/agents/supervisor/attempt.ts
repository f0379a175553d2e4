// One run of an agent under the supervisor: its heartbeat and its watchdog. The heartbeat is the
// agent's model output (every streamed event of an answer, the answer's arrival) and its tool calls;
// the watchdog runs while a model call is in flight (between calls the agent is running its tools,
// which have their own limits) and, after `silenceMs` without a beat, aborts the call. The attempt
// also keeps what the supervisor tells a restarted agent: its tool lines and its last words.

import type { ActivityReport, ActivitySink } from '../../activity';
import { EMPTY_USAGE, addUsage } from '../../model';
import type { Usage } from '../../model';
import type { ModelClient, ModelRequest, ModelResponse } from '../../llm/port';
import type { TraceSink } from '../../trace';
import type { AgentRuntime } from '../types';

export class SupervisedAttempt {
  private readonly controller = new AbortController();
  private readonly unlink: () => void;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight = 0;
  private stopped = false;
  private timedOutFlag = false;
  /** Model calls completed in this attempt (an aborted call reports none). */
  usage: Usage = EMPTY_USAGE;
  readonly done: string[] = [];
  lastWords = '';

  constructor(
    private readonly base: AgentRuntime,
    private readonly silenceMs: number,
    /** Told on every beat (throttling is the listener's affair). */
    private readonly onBeat: () => void,
  ) {
    const parent = base.signal;
    const follow = (): void => this.controller.abort(parent?.reason);
    if (parent?.aborted) follow();
    parent?.addEventListener('abort', follow, { once: true });
    this.unlink = () => parent?.removeEventListener('abort', follow);
  }

  /** True once the watchdog stopped the agent for its silence. */
  get timedOut(): boolean {
    return this.timedOutFlag;
  }

  /** The runtime the agent runs with: its model, trace and activity report beats; its signal is the watchdog's. */
  runtime(continuation: string | undefined, notice?: ActivityReport): AgentRuntime {
    const { continuation: _earlier, ...base } = this.base;
    return {
      ...base,
      model: this.model(base.model),
      trace: this.trace(base.trace),
      activity: this.activity(base.activity, notice),
      signal: this.controller.signal,
      ...(continuation ? { continuation } : {}),
    };
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
    this.unlink();
  }

  private beat(): void {
    if (this.stopped) return;
    if (this.timer) this.timer.refresh();
    this.onBeat();
  }

  private arm(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timedOutFlag = true;
      this.controller.abort(new Error(`silent for ${this.silenceMs} ms`));
    }, this.silenceMs);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private model(inner: ModelClient): ModelClient {
    return {
      complete: async (request: ModelRequest): Promise<ModelResponse> => {
        const { onText: heard, onProgress, ...asked } = request;
        // Words are for the activity listener; without one (this sink is the attempt's own), none are asked for.
        const onText = this.base.activity ? heard : undefined;
        let words = '';
        this.inFlight += 1;
        this.arm();
        this.beat();
        try {
          const response = await inner.complete({
            ...asked,
            // Only when someone listens: a model asked for words streams them (the demo model at a pace).
            ...(onText
              ? {
                  onText: (delta: string) => {
                    words += delta;
                    this.lastWords = words;
                    this.beat();
                    onText(delta);
                  },
                }
              : {}),
            onProgress: () => {
              this.beat();
              onProgress?.();
            },
          });
          const said = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
          if (said.trim()) this.lastWords = said;
          this.beat();
          return response;
        } finally {
          this.inFlight -= 1;
          if (this.inFlight === 0) this.disarm();
        }
      },
    };
  }

  private trace(inner: TraceSink | undefined): TraceSink {
    return {
      record: (event) => {
        if (event.kind === 'model_call') this.usage = addUsage(this.usage, event.usage);
        if (event.kind === 'tool_call') this.beat();
        inner?.record(event);
      },
    };
  }

  /**
   * `notice` (why the agent runs again) follows the attempt's first turn_start: a panel starts its
   * list over at an agent's turn 1, and the notice must stay in the list it starts.
   */
  private activity(inner: ActivitySink | undefined, notice: ActivityReport | undefined): ActivitySink {
    let pending = notice;
    return {
      emit: (event: ActivityReport) => {
        if (event.kind === 'tool') this.done.push(event.line);
        inner?.emit(event);
        if (pending && event.kind === 'turn_start') {
          inner?.emit(pending);
          pending = undefined;
        }
      },
    };
  }
}
