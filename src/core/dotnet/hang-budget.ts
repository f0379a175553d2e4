// How a test project's time is split when a hung test is to be named. A test run carries no hang
// watcher (VSTest's blame collector is a process of its own, MTP's HangDump a controller process, and
// both cost every run); Ironbees enforces the limit itself and kills the process tree. Only a run that
// reached that limit is run again, alone, with the watcher on, so that the hung test is named.
// When the project's last run is known (the baseline's, in the same session), the first run gets all
// the time but what a re-run needs: that last run's time to reach the hung test, a hang timeout of twice
// that time (at least the shortest one), and the watcher's margin — so a healthy suite is never stopped
// near its usual time. A suite that took half the time or more last time gets all of it, with no re-run (a
// hang there is reported as not finished, unnamed). Unknown: half the time left less the margin.

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
 * for this project), too little time is left for a re-run, or the project's last run (`expectedMs`) took
 * half of it or more; otherwise all but a re-run's share, never less than half.
 */
export function hangBudget(remainingMs: number, canName: boolean, expectedMs?: number): HangBudget {
  const half = Math.floor((remainingMs - HANG_MARGIN_MS) / 2);
  const whole = { firstRunMs: Math.max(1, remainingMs), rerun: false };
  if (!canName || half < MIN_HANG_MS) return whole;
  if (expectedMs === undefined) return { firstRunMs: half, rerun: true };
  if (expectedMs >= half) return whole;
  const rerunShare = expectedMs + 2 * Math.max(expectedMs, MIN_HANG_MS) + HANG_MARGIN_MS;
  return { firstRunMs: Math.max(half, remainingMs - rerunShare), rerun: true };
}

/** What a re-run's watcher may let one test run, out of `leftMs`: less the time its tests take to reach it. */
export function rerunHangMs(leftMs: number, expectedMs: number | undefined): number {
  return leftMs - (expectedMs ?? 0);
}

/** The watcher's hang timeout in whole seconds for a run with `remainingMs` left, or null when too little is left. */
export function hangTimeoutSeconds(remainingMs: number): number | null {
  const hangMs = remainingMs - HANG_MARGIN_MS;
  return hangMs < MIN_HANG_MS ? null : Math.floor(hangMs / 1000);
}
