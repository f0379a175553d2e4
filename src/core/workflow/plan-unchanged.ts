// Whether a re-plan after the person's feedback came back identical. Said at the plan gate (CLI,
// panel through the state's metadata) so the person is not left thinking their feedback was used.

import { isDeepStrictEqual } from 'node:util';
import type { ExecutionPlan } from '../model';

/**
 * True only when the plan was asked for again with feedback (a rejection at the plan gate) and the
 * planner returned the same spec and plan as the one rejected.
 */
export function planUnchangedAfterFeedback(
  previous: { spec: string | null; plan: ExecutionPlan | null; feedback: string | null },
  next: { spec: string; plan: ExecutionPlan },
): boolean {
  if (!previous.feedback || !previous.plan) return false;
  return previous.spec === next.spec && isDeepStrictEqual(previous.plan, next.plan);
}
