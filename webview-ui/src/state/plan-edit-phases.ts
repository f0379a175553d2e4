// Editing a plan in phases: its `steps` are every phase's in order, so an edit of a step goes back
// to the phase it belongs to (the extension takes a phased plan's steps from its phases). A phase
// whose last step the person removed is dropped, and no other phase waits for it any more.

import type { ExecutionPlan, PlanPhase, PlanStep } from '../../../src/core/model';

/** The id of the phase each of the plan's steps belongs to, in step order; empty for a plan in one phase. */
export function phaseOwners(plan: ExecutionPlan): string[] {
  return (plan.phases ?? []).flatMap((phase) => phase.steps.map(() => phase.id));
}

/** The phases with the edited steps (`owners[i]` is step i's phase), renumbered within each phase. */
export function regroupPhases(phases: readonly PlanPhase[], steps: readonly PlanStep[], owners: readonly string[]): PlanPhase[] {
  const kept = phases
    .map((phase) => {
      const own = steps.filter((_, i) => owners[i] === phase.id).map((step, i) => ({ ...step, number: i + 1 }));
      const files = [...new Set(own.map((step) => step.filePath).filter((f) => f !== ''))];
      return { ...phase, steps: own, affectedFiles: files };
    })
    .filter((phase) => phase.steps.length > 0);
  const ids = new Set(kept.map((phase) => phase.id));
  return kept.map((phase) => ({ ...phase, dependencies: phase.dependencies.filter((id) => ids.has(id)) }));
}
