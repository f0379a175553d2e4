// Which phases of a plan start now when several may run at once (`--parallel N`): the ready ones
// (pending, every dependency complete: phase-graph.ts) in plan order, as many as there is room for
// beside the phases already running. Kept apart from running them, so the rule is tested alone.

import type { PhaseStatus } from '../model';
import { readyPhaseIds } from '../phase-graph';
import type { PhaseNode } from '../phase-graph';

/** The ids to start now: at most `limit` running in all; none when `limit` is already reached. */
export function phasesToStart(phases: readonly PhaseNode[], statuses: ReadonlyMap<string, PhaseStatus>, limit: number): string[] {
  const running = phases.filter((phase) => statuses.get(phase.id) === 'running').length;
  const room = Math.max(0, Math.floor(limit) - running);
  return readyPhaseIds(phases, statuses).slice(0, room);
}

/** A phase id as it may appear in a branch and a folder name: anything but letters, digits, `.`, `_` and `-` becomes `-`. */
export function phaseSlug(id: string): string {
  const slug = id.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '');
  return slug || 'phase';
}
