// An optional minimum delay between the starts of two model calls, for
// endpoints with a strict requests-per-minute quota or a local server that should not be flooded.
// The providers' own retry-after handling (in the SDKs) still applies to each call.

import type { ModelClient, ModelRequest, ModelResponse } from '../port';

export class PacedModelClient implements ModelClient {
  private nextStartAt = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: ModelClient,
    private readonly minIntervalMs: number,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  ) {}

  complete(request: ModelRequest): Promise<ModelResponse> {
    // Calls are spaced in the order they were made, even when two agents call at once.
    const turn = this.queue.then(async () => {
      const wait = this.nextStartAt - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait);
      this.nextStartAt = this.clock.now() + this.minIntervalMs;
    });
    this.queue = turn.catch(() => undefined);
    return turn.then(() => this.inner.complete(request));
  }
}
