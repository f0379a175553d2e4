// What a new plan version changed against the one before it, step by step, so the person can judge
// whether their feedback was used without comparing two lists by eye. A step is the same step when
// its action, file and description are the same; a reworded step reads as one removed and one added.

import type { ExecutionPlan, PlanStep } from '../model';
import { clip } from '../platform/text';

export interface PlanChanges {
  /** Steps of the new version that the previous one did not have, as `MODIFY src/A.cs: what`. */
  added: string[];
  /** Steps of the previous version that the new one dropped. */
  removed: string[];
}

const MAX_LISTED = 20;
const STEP_CHARS = 200;

export function stepLabel(step: PlanStep): string {
  return clip(`${step.actionType} ${step.filePath}: ${step.description}`.replace(/\s+/g, ' ').trim(), STEP_CHARS);
}

/** The steps added and removed between two versions; undefined when there is no previous version. */
export function planChanges(previous: ExecutionPlan | null, next: ExecutionPlan): PlanChanges | undefined {
  if (!previous) return undefined;
  const before = previous.steps.map(stepLabel);
  const after = next.steps.map(stepLabel);
  return {
    added: after.filter((label) => !before.includes(label)).slice(0, MAX_LISTED),
    removed: before.filter((label) => !after.includes(label)).slice(0, MAX_LISTED),
  };
}
