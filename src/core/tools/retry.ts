// Full-jitter exponential backoff (AWS architecture blog, "Exponential Backoff and Jitter"): spreading
// retries uniformly over [0, cap] avoids the synchronised waves a fixed schedule causes.

import type { RetryPolicy } from './types';

export function fullJitterDelay(policy: RetryPolicy, retryIndex: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/** Resolves after `ms`, or early (false) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
