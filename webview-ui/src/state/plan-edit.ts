// Editing a plan before approving it. The person may reword steps, change their file or action,
// and drop steps; the result goes back as `approvePlan.editedPlan`, which the extension validates
// against the same schema, so these helpers keep it valid (numbered 1..n, at least one step).

import type { ActionType, ExecutionPlan, PlanStep } from '../../../src/core/model';
import { phaseOwners, regroupPhases } from './plan-edit-phases';

export const ACTION_TYPES: readonly ActionType[] = ['CREATE', 'MODIFY', 'DELETE', 'REFACTOR'];

export type StepPatch = Partial<Pick<PlanStep, 'description' | 'filePath' | 'actionType'>>;

export function updateStep(plan: ExecutionPlan, index: number, patch: StepPatch): ExecutionPlan {
  if (index < 0 || index >= plan.steps.length) return plan;
  const steps = plan.steps.map((step, i) => (i === index ? { ...step, ...patch } : step));
  return withDerivedFields(plan, steps);
}

export function removeStep(plan: ExecutionPlan, index: number): ExecutionPlan {
  if (index < 0 || index >= plan.steps.length) return plan;
  return withDerivedFields(
    plan,
    plan.steps.filter((_, i) => i !== index),
    phaseOwners(plan).filter((_, i) => i !== index),
  );
}

/** The person wants this pre-existing failure fixed after all: it no longer excuses the run. */
export function requireFixOf(plan: ExecutionPlan, testName: string): ExecutionPlan {
  const knownFailures = (plan.knownFailures ?? []).filter((name) => name !== testName);
  const { knownFailures: _dropped, ...rest } = plan;
  return knownFailures.length > 0 ? { ...rest, knownFailures } : rest;
}

/** What stops the edited plan from being approved; empty when it can go. */
export function planProblems(plan: ExecutionPlan): string[] {
  const problems: string[] = [];
  if (plan.steps.length === 0) problems.push('A plan needs at least one step; reject it instead.');
  plan.steps.forEach((step) => {
    if (step.description.trim() === '') problems.push(`Step ${step.number} has no description.`);
  });
  return problems;
}

/** The edited plan, trimmed, as it will be sent. */
export function finalizePlan(plan: ExecutionPlan): ExecutionPlan {
  const steps = plan.steps.map((step) => ({ ...step, description: step.description.trim(), filePath: step.filePath.trim() }));
  return withDerivedFields(plan, steps);
}

function withDerivedFields(plan: ExecutionPlan, steps: PlanStep[], owners: string[] = phaseOwners(plan)): ExecutionPlan {
  const renumbered = steps.map((step, i) => ({ ...step, number: i + 1 }));
  const edited = { ...plan, steps: renumbered, affectedFiles: affectedFiles(plan.affectedFiles, renumbered) };
  return plan.phases?.length ? { ...edited, phases: regroupPhases(plan.phases, renumbered, owners) } : edited;
}

/**
 * The planner's affected files that a step still names, plus files the person typed into a step.
 * Files no step mentions are kept only when no step names any file (the planner listed them for context).
 */
function affectedFiles(original: string[], steps: PlanStep[]): string[] {
  const stepFiles = steps.map((s) => s.filePath.trim()).filter((f) => f !== '');
  if (stepFiles.length === 0) return original;
  const result = original.filter((f) => stepFiles.includes(f));
  for (const file of stepFiles) if (!result.includes(file)) result.push(file);
  return result;
}
