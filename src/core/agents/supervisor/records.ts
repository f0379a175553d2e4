// Where the supervisor writes what it sees of an agent: the same coordination records the APMAS
// tools of `ironbees mcp` read and write (status, heartbeat, checkpoint, messages), so an outside
// agent and Ironbees' own agents are supervised alike. A port: the workflow binds it to the run's
// coordination store. Writing a record never stops an agent: a failed write is logged.

/** A change to an agent's record; absent fields keep their value. */
export interface AgentStatusChange {
  status?: string;
  progress?: string;
  message?: string;
  /** Files the agent produced (merged into the record's list). */
  artifacts?: string[];
  summary?: string;
  /** Marks the record completed now. */
  completed?: boolean;
  /** ISO time of the agent's latest sign of life. */
  lastHeartbeat?: string;
}

export interface SupervisionRecords {
  update(agent: string, change: AgentStatusChange): Promise<void>;
  checkpoint(agent: string, checkpoint: Record<string, unknown>): Promise<void>;
  message(message: { from: string; to: string; type: string; content: string; artifacts?: string[] }): Promise<void>;
}

/** Heartbeats are written at most this often (an answer streams many events a second). */
export const HEARTBEAT_RECORD_INTERVAL_MS = 5_000;

/** One agent's records as the supervisor writes them, in order, heartbeats throttled. */
export class HeartbeatRecorder {
  private lastWritten = Number.NEGATIVE_INFINITY;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly agent: string,
    private readonly records: SupervisionRecords | undefined,
    private readonly now: () => number,
    private readonly warn: (message: string) => void,
  ) {}

  /** A sign of life: written when the last one written is old enough. */
  beat(): void {
    const at = this.now();
    if (!this.records || at - this.lastWritten < HEARTBEAT_RECORD_INTERVAL_MS) return;
    this.lastWritten = at;
    void this.write((records) => records.update(this.agent, { lastHeartbeat: new Date(at).toISOString() }));
  }

  /** A change of status, with a heartbeat (the supervisor saw the agent just now). */
  status(change: AgentStatusChange): Promise<void> {
    const at = this.now();
    this.lastWritten = at;
    return this.write((records) => records.update(this.agent, { ...change, lastHeartbeat: new Date(at).toISOString() }));
  }

  /** Runs a write after the ones before it; resolves when it is done or failed (and logged). */
  write(change: (records: SupervisionRecords) => Promise<void>): Promise<void> {
    const records = this.records;
    if (!records) return Promise.resolve();
    this.chain = this.chain.then(() =>
      change(records).catch((error: unknown) =>
        this.warn(`Could not write the ${this.agent}'s coordination record: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
    return this.chain;
  }
}
