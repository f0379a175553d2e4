// Where the panel offers "Restore here" and "Back to last green": the checkpoints of the run shown,
// matched to the timeline's steps (the plan, the latest validation) and to each attempt. Pure.

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
