// The SDK's timeout bounds a request until its response starts; a stream that then stalls (the
// connection open, no more events) would wait forever. The watchdog aborts a stream that has been
// silent for the same time limit, and says so in a timeout error instead of a hang.

import { ModelApiError } from '../errors';

/** The SDK's own default request timeout (10 minutes), used when the client sets none. */
export const DEFAULT_STREAM_IDLE_MS = 600_000;

export interface StreamWatchdog {
  /** True once the watchdog aborted the stream. */
  readonly stalled: boolean;
  /** The timeout error to throw in place of the abort the watchdog caused. */
  error(cause: unknown): ModelApiError;
  stop(): void;
}

/**
 * Watches a provider's stream: `subscribe` hooks `arm` to the SDK's events for "the response
 * arrived" and "an event came" (the clock starts at the first and restarts at each).
 */
export function watchStream(stream: { abort(): void }, idleMs: number, subscribe: (arm: () => void) => void): StreamWatchdog {
  let timer: NodeJS.Timeout | undefined;
  let stalled = false;
  const arm = (): void => {
    if (timer) timer.refresh();
    else timer = setTimeout(() => ((stalled = true), stream.abort()), idleMs);
  };
  subscribe(arm);
  return {
    get stalled() {
      return stalled;
    },
    error: (cause) =>
      new ModelApiError('timeout', `The model stream stalled: no event for ${idleMs / 1000} s, so the call was stopped.`, null, { cause }),
    stop: () => clearTimeout(timer),
  };
}
