// Progress for a long install that should otherwise be silent (`npm start`'s first run): one line
// per phase with the seconds since the start, and a "still …" line now and then while a phase
// runs long, so a person waiting a minute sees it is alive. Clock, timer and output are injected
// so the lines are tested exactly.

/**
 * @param {{ label: string, write: (line: string) => void, now?: () => number, tickMs?: number,
 *   setInterval?: typeof setInterval, clearInterval?: typeof clearInterval }} options
 */
export function createInstallProgress(options) {
  const now = options.now ?? Date.now;
  const every = options.setInterval ?? setInterval;
  const stopEvery = options.clearInterval ?? clearInterval;
  const tickMs = options.tickMs ?? 15_000;
  const started = now();
  const elapsed = () => `${Math.round((now() - started) / 1000)} s`;
  let ticker = null;
  let current = '';

  const stopTicker = () => {
    if (ticker !== null) stopEvery(ticker);
    ticker = null;
  };

  return {
    /** Starts a phase: says so at once, then every tickMs while it lasts (with `short`, when given). */
    phase(title, short = title) {
      stopTicker();
      current = short;
      options.write(`${options.label}: ${title}… (${elapsed()})`);
      ticker = every(() => options.write(`${options.label}: still ${current}… (${elapsed()})`), tickMs);
      ticker.unref?.();
    },
    /** The install is over: the last line, with the total time. */
    done(summary) {
      stopTicker();
      options.write(`${options.label}: ${summary} in ${elapsed()}`);
    },
    /** Stops the ticker without a line (the caller reports the failure). */
    stop: stopTicker,
  };
}
