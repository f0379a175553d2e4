// When the Agent panel may be posted to (vscode-pull-request-github's `_waitForReady`, plus the
// moment in between). Before `ready` nothing is posted: the page asks for everything with `ready`.
// While the answer to `ready` (the snapshot) is being gathered, live messages are held, not sent:
// sent at once, a newer state would arrive before the snapshot and be overwritten by the
// snapshot's older copy. Held messages follow the snapshot in the order they came; each of them
// was posted because something changed, so the last of each kind is the newest. Pure (no vscode),
// so the ordering is tested in plain Node.

type Phase = 'closed' | 'gathering' | 'open';

export class ReadyGate<M> {
  private phase: Phase = 'closed';
  private held: M[] = [];
  /** Counts `open`/`close` calls: a snapshot gathered for an older `ready` is not sent. */
  private generation = 0;

  constructor(private readonly send: (message: M) => void) {}

  /** The page has said `ready` and got its snapshot. */
  get isOpen(): boolean {
    return this.phase === 'open';
  }

  /** The page is gone or hidden: drop everything until it says `ready` again. */
  close(): void {
    this.generation += 1;
    this.phase = 'closed';
    this.held = [];
  }

  /** Sends, holds (while a snapshot is being gathered) or drops (before `ready`). */
  post(message: M): void {
    if (this.phase === 'open') this.send(message);
    else if (this.phase === 'gathering') this.held.push(message);
  }

  /**
   * The page said `ready`: gathers its snapshot, sends it, then what was held meanwhile. Resolves
   * false when a newer `ready` or a `close` came first (this snapshot is then not sent). A failing
   * snapshot still opens the gate, so the page gets later changes, and then rethrows.
   */
  async open(snapshot: () => Promise<readonly M[]>): Promise<boolean> {
    this.generation += 1;
    const generation = this.generation;
    this.phase = 'gathering';
    this.held = [];
    let messages: readonly M[] = [];
    let failure: unknown = null;
    try {
      messages = await snapshot();
    } catch (error) {
      failure = error ?? new Error('The panel snapshot failed.');
    }
    if (generation !== this.generation) return false;
    for (const message of messages) this.send(message);
    this.phase = 'open';
    const held = this.held;
    this.held = [];
    for (const message of held) this.send(message);
    if (failure !== null) throw failure;
    return true;
  }
}
