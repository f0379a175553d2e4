// The dependency graph of a plan's phases: what makes it unusable (said so the planner can fix its
// plan), and which phases may start now. Kept apart from running a phase, so a scheduler that runs
// several ready phases at once asks the same question.

import type { PhaseStatus } from './model';

export interface PhaseNode {
  id: string;
  dependencies: readonly string[];
}

/**
 * Why the phases cannot be run, or null when they can: a duplicate or empty id, a dependency on a
 * phase that is not in the plan (or on itself), a cycle (named phase by phase).
 */
export function phaseGraphProblem(phases: readonly PhaseNode[]): string | null {
  const ids = phases.map((phase) => phase.id.trim());
  if (ids.some((id) => id === '')) return 'A phase has an empty id: give every phase a short unique id.';
  const duplicates = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (duplicates.length) return `Phase ids must be unique; these are used more than once: ${duplicates.join(', ')}.`;
  const known = new Set(ids);
  for (const phase of phases) {
    if (phase.dependencies.includes(phase.id)) return `Phase "${phase.id}" depends on itself: remove it from its own dependencies.`;
    const unknown = phase.dependencies.filter((dependency) => !known.has(dependency));
    if (unknown.length) {
      return `Phase "${phase.id}" depends on ${unknown.map((id) => `"${id}"`).join(', ')}, which no phase of the plan has as its id (the ids are ${ids.join(', ')}).`;
    }
  }
  const cycle = findCycle(phases);
  if (cycle) {
    return `The phases' dependencies form a cycle (${cycle.join(' → ')}), so none of them could ever start: make the order one-way.`;
  }
  return null;
}

/** The first cycle found, as the ids along it with the first repeated at the end; null when there is none. */
export function findCycle(phases: readonly PhaseNode[]): string[] | null {
  const byId = new Map(phases.map((phase) => [phase.id, phase]));
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (done.has(id)) return null;
    const at = path.indexOf(id);
    if (at >= 0) return [...path.slice(at), id];
    path.push(id);
    for (const dependency of byId.get(id)?.dependencies ?? []) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(id);
    return null;
  };
  for (const phase of phases) {
    const cycle = visit(phase.id);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * The ids of the phases that may start now: pending, with every dependency complete, in plan order.
 * `statuses` maps each phase id to its status (absent counts as pending).
 */
export function readyPhaseIds(phases: readonly PhaseNode[], statuses: ReadonlyMap<string, PhaseStatus>): string[] {
  return phases
    .filter((phase) => (statuses.get(phase.id) ?? 'pending') === 'pending')
    .filter((phase) => phase.dependencies.every((dependency) => statuses.get(dependency) === 'complete'))
    .map((phase) => phase.id);
}
