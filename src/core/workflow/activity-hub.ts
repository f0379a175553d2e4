// Hands a run's live activity (core/activity.ts) from the agents to whoever listens: the faces
// subscribe once, the orchestrator makes one sink per run, which stamps the run's id. A listener
// that throws is logged and does not stop the run or the other listeners.

import type { ActivityEvent, ActivityListener, ActivitySink } from '../activity';

export class ActivityHub {
  private readonly listeners = new Set<ActivityListener>();

  constructor(private readonly warn: (message: string) => void) {}

  subscribe(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sinkFor(runId: string): ActivitySink {
    return { emit: (event) => this.publish({ ...event, runId } as ActivityEvent) };
  }

  publish(event: ActivityEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.warn(`An activity listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
