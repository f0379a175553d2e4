// One run's live events for its followers (SSE): every CodingState and activity line gets an id
// `<server epoch>.<n>`, kept in a bounded buffer, so a follower that reconnects with Last-Event-ID
// gets exactly what it missed. An id from another server process (a restart) or older than the
// buffer replays the buffer, headed by the latest state.

export interface ChannelEvent {
  id: string;
  event: 'state' | 'activity';
  data: string;
}

type Listener = (event: ChannelEvent) => void;

export class RunChannel {
  private readonly events: Array<ChannelEvent & { n: number }> = [];
  private readonly listeners = new Set<Listener>();
  private readonly enders = new Set<() => void>();
  private next = 1;
  private lastState: (ChannelEvent & { n: number }) | null = null;
  private ended = false;

  constructor(
    private readonly epoch: string,
    private readonly limit = 2000,
  ) {}

  publish(event: 'state' | 'activity', value: unknown): void {
    const data = JSON.stringify(value);
    const n = this.next++;
    const entry = { id: `${this.epoch}.${n}`, n, event, data };
    if (event === 'state') this.lastState = entry;
    this.events.push(entry);
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - Math.floor(this.limit / 2));
    for (const listener of this.listeners) listener(entry);
  }

  /** What a follower who saw `lastEventId` missed; everything held when the id is not of this buffer. */
  since(lastEventId: string | undefined): ChannelEvent[] {
    const match = /^([^.]+)\.(\d+)$/.exec(lastEventId ?? '');
    const strip = ({ id, event, data }: ChannelEvent): ChannelEvent => ({ id, event, data });
    if (match && match[1] === this.epoch) {
      const seen = Number(match[2]);
      const first = this.events[0]?.n ?? this.next;
      if (seen >= first - 1) return this.events.filter((e) => e.n > seen).map(strip);
    }
    // The buffer may have lost its head to a flood of activity: the latest state comes first then.
    const head = this.events[0];
    const all = this.lastState && head && head.n > this.lastState.n ? [this.lastState, ...this.events] : this.events;
    return all.map(strip);
  }

  /** `onEnd` is called once the run has ended here (at once when it already had). */
  subscribe(listener: Listener, onEnd: () => void): () => void {
    this.listeners.add(listener);
    this.enders.add(onEnd);
    if (this.ended) queueMicrotask(onEnd);
    return () => {
      this.listeners.delete(listener);
      this.enders.delete(onEnd);
    };
  }

  /** No more events: the run ended, or is no longer followed here. */
  end(): void {
    this.ended = true;
    for (const onEnd of this.enders) onEnd();
  }
}
