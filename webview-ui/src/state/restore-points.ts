// Where the panel offers "Restore here" and "Back to last green": the checkpoints of the run shown,
// matched to the timeline's steps (the plan, the latest validation) and to each attempt. Pure.

import type { CodingState } from '../../../src/core/model';
import type { PanelCheckpoint } from '../../../src/shared/protocol';

export interface RestorePoints {
  /** Timeline node → the checkpoint "Restore here" on that step goes back to. */
  steps: Partial<Record<string, PanelCheckpoint>>;
  /** Attempt (iteration) → the checkpoint taken after its validation. */
  attempts: Partial<Record<number, PanelCheckpoint>>;
  /** The newest checkpoint whose tests all passed, or null (no "Back to last green"). */
  lastGreen: PanelCheckpoint | null;
}

export const NO_RESTORE_POINTS: RestorePoints = { steps: {}, attempts: {}, lastGreen: null };

/**
 * The restore points of run `runId`, from its checkpoints (oldest first). None while the run is
 * working (a step in flight would write over what a rewind puts back) or for another run's list.
 */
export function restorePoints(
  runId: string,
  checkpoints: { runId: string; list: readonly PanelCheckpoint[] } | null,
  busy: boolean,
): RestorePoints {
  if (busy || !checkpoints || checkpoints.runId !== runId || checkpoints.list.length === 0) return NO_RESTORE_POINTS;
  const list = checkpoints.list;
  const attempts: Partial<Record<number, PanelCheckpoint>> = {};
  // The latest checkpoint of an iteration wins, as `iteration:N` resolves.
  for (const c of list) if (c.kind === 'iteration') attempts[c.iteration] = c;
  const plan = list.find((c) => c.kind === 'plan');
  const validated = list.filter((c) => c.kind === 'iteration').at(-1);
  const steps: Partial<Record<string, PanelCheckpoint>> = {};
  if (plan) steps.PLAN = plan;
  if (validated) steps.VALIDATE = validated;
  return { steps, attempts, lastGreen: list.filter((c) => c.green).at(-1) ?? null };
}

/**
 * Why the run waits, when it waits because the person rewound it (its last rewind is its last
 * change): said instead of the escalation's own reason, which is no longer why. Null otherwise.
 */
export function rewoundNote(run: CodingState): string | null {
  const rewinds = run.metadata.rewinds;
  const last = Array.isArray(rewinds) ? (rewinds.at(-1) as { at?: unknown; label?: unknown } | undefined) : undefined;
  if (!last || last.at !== run.timestamp || typeof last.label !== 'string') return null;
  return `Rewound to “${last.label}”: the files have that checkpoint's bytes, and what was tried after it stays in the run's history. Say what to try next.`;
}
