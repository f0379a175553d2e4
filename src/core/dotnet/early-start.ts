// Work that may start before the step it waits for has fully ended (the tests, at MSBuild's "Build
// succeeded." line, while the build command still exits), and is called off if that step fails after all.

export interface EarlyStart<T> {
  /** Starts the work now, if it has not started yet. */
  start(): void;
  /** Stops work already started (its processes are stopped through the signal) and waits for it to end. */
  cancel(): Promise<void>;
  /** The work's result; starts it if it has not started yet. */
  result(): Promise<T>;
}

/** `work` runs at most once, with a signal that aborts on `outer` or on cancel(). */
export function earlyStart<T>(work: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): EarlyStart<T> {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  let started: Promise<T> | null = null;
  const begin = (): Promise<T> => {
    if (!started) {
      started = work(signal);
      // Awaited by result() or cancel(); until then a rejection must not count as unhandled.
      started.catch(() => undefined);
    }
    return started;
  };
  return {
    start: () => void begin(),
    cancel: async () => {
      if (!started) return;
      controller.abort(new Error('the build did not succeed'));
      await started.catch(() => undefined);
    },
    result: begin,
  };
}
