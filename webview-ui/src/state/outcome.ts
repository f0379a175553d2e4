// The run's outcome in one glance, for the top of the run view: how it ended (or that it was
// reverted) and the tests before → after — fixed, still failing, newly failing — by name.

import type { CodingState } from '../../../src/core/model';
import { isTerminal } from './timeline';
import { validationView } from './validation';

export type OutcomeTone = 'ok' | 'error' | 'warn' | 'neutral';

export interface OutcomeView {
  headline: string;
  tone: OutcomeTone;
  /** "Failing tests 1 → 0" against the baseline; null before anything was validated. */
  tests: string | null;
  fixed: string[];
  stillFailing: string[];
  newlyFailing: string[];
}

/** Null while the run works toward its first validation and has not ended or stopped for the person. */
export function outcomeView(run: CodingState): OutcomeView | null {
  const node = run.currentNode;
  const validation = validationView(run);
  const reverted = typeof run.metadata.revertedAt === 'string' && isTerminal(node);
  if (!isTerminal(node) && node !== 'WAIT_HUMAN') return null;
  const failures = validation?.failures ?? [];
  const before = run.baseline?.test?.failed;
  const after = run.testResult?.failed;
  return {
    headline: reverted ? 'Reverted: every file the run changed has its original content back' : headlineOf(run),
    tone: reverted ? 'neutral' : node === 'SUCCESS' ? 'ok' : node === 'FAILED' ? 'error' : node === 'WAIT_HUMAN' ? 'warn' : 'neutral',
    tests: after === undefined ? null : `Failing tests ${before ?? '?'} → ${after}`,
    fixed: validation?.fixed ?? [],
    stillFailing: failures.filter((f) => f.preExisting).map((f) => f.testName),
    newlyFailing: failures.filter((f) => !f.preExisting).map((f) => f.testName),
  };
}

function headlineOf(run: CodingState): string {
  const iterations = `${run.iterationCount} iteration${run.iterationCount === 1 ? '' : 's'}`;
  switch (run.currentNode) {
    case 'SUCCESS':
      return `Succeeded in ${iterations}: the build is clean and the tests pass`;
    case 'FAILED':
      return 'Failed with an error it could not recover from';
    case 'CANCELLED':
      return 'Cancelled';
    default:
      return `Needs you after ${iterations}`;
  }
}
