// An optional fallback provider/model behind the primary, with a circuit breaker. When the
// primary's own retries are spent on an outage (overloaded, 5xx, time-out, no connection), the same
// request (the whole conversation) goes to the fallback, and the breaker counts the failure; once
// open, calls go straight to the fallback until the cool-down has passed, when one call tries the
// primary again (half-open). Other errors (a refused key, a bad request) are not outages and are
// not hidden behind the fallback. Each switch is reported on the response (`fallback`), and the
// tool loop traces it in events.jsonl.

import { ModelApiError } from '../errors';
import type { ModelErrorKind } from '../errors';
import type { ModelClient, ModelRequest, ModelResponse } from '../port';
import { DEFAULT_PROVIDER } from './choice';

const OUTAGE_KINDS: ReadonlySet<ModelErrorKind> = new Set(['overloaded', 'server', 'timeout', 'connection']);

export function isOutage(error: unknown): boolean {
  return error instanceof ModelApiError && OUTAGE_KINDS.has(error.kind);
}

export interface CircuitBreakerOptions {
  /** Outages in a row (each after the SDK's retries) that open the circuit. Default 2. */
  failureThreshold?: number;
  /** How long the circuit stays open before the primary is tried again. Default 60 s. */
  cooldownMs?: number;
  now?: () => number;
}

export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(options: CircuitBreakerOptions = {}) {
    this.threshold = options.failureThreshold ?? 2;
    this.cooldownMs = options.cooldownMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** True while calls should skip the primary. After the cool-down one call may try it (half-open). */
  isOpen(): boolean {
    return this.openedAt !== null && this.now() - this.openedAt < this.cooldownMs;
  }

  recordSuccess(): void {
    this.failures = 0;
    this.openedAt = null;
  }

  recordOutage(): void {
    this.failures += 1;
    if (this.failures >= this.threshold) this.openedAt = this.now();
  }
}

export interface FallbackTarget {
  provider: string;
  model: string;
}

export class FallbackModelClient implements ModelClient {
  constructor(
    private readonly primary: ModelClient,
    private readonly fallbackClient: ModelClient,
    private readonly target: FallbackTarget,
    private readonly breaker: CircuitBreaker = new CircuitBreaker(),
    /** Told when calls move to the fallback and when they are back on the primary (not on every call). */
    private readonly onSwitch: (message: string) => void = () => {},
  ) {}

  private onFallback = false;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (this.breaker.isOpen()) return this.viaFallback(request, "the primary provider's circuit is open after repeated outages");
    try {
      const response = await this.primary.complete(request);
      this.breaker.recordSuccess();
      if (this.onFallback) this.onSwitch(`Model calls are back on ${request.provider ?? DEFAULT_PROVIDER}/${request.model}.`);
      this.onFallback = false;
      return response;
    } catch (error) {
      if (!isOutage(error)) throw error;
      this.breaker.recordOutage();
      return this.viaFallback(request, (error as ModelApiError).message);
    }
  }

  private async viaFallback(request: ModelRequest, reason: string): Promise<ModelResponse> {
    const from = { provider: request.provider ?? DEFAULT_PROVIDER, model: request.model };
    const response = await this.fallbackClient.complete({ ...request, provider: this.target.provider, model: this.target.model });
    if (!this.onFallback) this.onSwitch(`Model calls switched to the fallback ${this.target.provider}/${this.target.model}: ${reason}`);
    this.onFallback = true;
    return {
      ...response,
      fallback: { from: `${from.provider}/${from.model}`, to: `${this.target.provider}/${this.target.model}`, reason },
    };
  }
}
