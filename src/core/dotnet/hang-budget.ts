// How a test project's time is split when a hung test is to be named. A test run carries no hang
// watcher (VSTest's blame collector is a process of its own, MTP's HangDump a controller process, and
// both cost every run); Ironbees enforces the limit itself and kills the process tree. Only a run that
// reached that limit is run again, alone, with the watcher on, so that the hung test is named. The first
// run therefore gets half of the time left less the watcher's margin, and the re-run the rest: its
// watcher stops a test that runs as long as the whole first run did. A healthy suite that needs more
// than the first run's share is not lost: the re-run runs it to the end (the watcher stops only a
// single test that runs that long).

/** Time a watcher needs after its hang timeout to stop the host and write what it saw. */
export const HANG_MARGIN_MS = 20_000;
/** A hang timeout shorter than this would stop slow but healthy tests. */
export const MIN_HANG_MS = 5_000;

export interface HangBudget {
  /** The first run's limit (without a watcher). */
  firstRunMs: number;
  /** Whether a run that reaches that limit is run again with the watcher to name the hung test. */
  rerun: boolean;
}

/**
 * The first run's limit out of `remainingMs`: all of it when the hung test cannot be named (no watcher
 * for this project) or too little time is left for a re-run to; half of it less the margin otherwise.
 */
export function hangBudget(remainingMs: number, canName: boolean): HangBudget {
  const half = Math.floor((remainingMs - HANG_MARGIN_MS) / 2);
  if (!canName || half < MIN_HANG_MS) return { firstRunMs: Math.max(1, remainingMs), rerun: false };
  return { firstRunMs: half, rerun: true };
}

/** The watcher's hang timeout in whole seconds for a run with `remainingMs` left, or null when too little is left. */
export function hangTimeoutSeconds(remainingMs: number): number | null {
  const hangMs = remainingMs - HANG_MARGIN_MS;
  return hangMs < MIN_HANG_MS ? null : Math.floor(hangMs / 1000);
}
