// The coder's reduced scope (supervisor/policy.ts, the second timeout): the plan's steps whose file
// it has not staged yet. The plan keeps its affected files, so the files it did stage stay in scope.

import type { ExecutionPlan } from '../../model';
import type { CoderInput } from './runner';
import { renderPlan } from './runner';

export function remainingSteps(input: CoderInput, stagedFiles: readonly string[]): { input: CoderInput; remaining: string | null } {
  const staged = new Set(stagedFiles);
  const left = input.plan.steps.filter((step) => !staged.has(step.filePath));
  // Every step's file is staged: what is left cannot be told apart, so the whole plan stays.
  if (left.length === 0 || left.length === input.plan.steps.length) return { input, remaining: null };
  const plan: ExecutionPlan = {
    ...input.plan,
    steps: left,
    affectedFiles: [...new Set([...input.plan.affectedFiles, ...input.plan.steps.map((step) => step.filePath)])],
  };
  return {
    input: { ...input, plan },
    remaining: `Only these steps of the plan are left:\n\n${renderPlan(plan)}`,
  };
}
