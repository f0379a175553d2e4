// The plan's `knownFailures` must name baseline failures exactly (the validator compares names as
// they are): a name that is not among them is refused, with the baseline names that come closest,
// so the planner can correct it instead of the run failing later on a test it meant to excuse.

import { similarity } from '../../tools/workspace/edit-ops';

const SUGGESTED = 3;

/** Null when every name is a baseline failure; else the message for the planner. */
export function unknownKnownFailures(named: readonly string[], baselineFailures: readonly string[]): string | null {
  const known = new Set(baselineFailures);
  const unknown = named.filter((name) => !known.has(name));
  if (unknown.length === 0) return null;
  if (baselineFailures.length === 0) {
    return `plan.knownFailures names ${unknown.length} test(s), but no test failed before any change: leave knownFailures out.`;
  }
  const lines = unknown.map((name) => {
    const nearest = nearestNames(name, baselineFailures);
    return `- ${JSON.stringify(name)}${nearest.length ? `: did you mean ${nearest.map((n) => JSON.stringify(n)).join(' or ')}?` : ''}`;
  });
  return [
    'plan.knownFailures must name failing baseline tests exactly (as listed in the request); these are not among them:',
    ...lines,
    'Correct the names (or leave them out) and call submit_plan again.',
  ].join('\n');
}

/** The baseline names closest to `name`: a name that ends the same way first (a class or namespace left off), then by likeness. */
export function nearestNames(name: string, candidates: readonly string[], count = SUGGESTED): string[] {
  const wanted = name.trim().toLowerCase();
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const suffix = lower.endsWith(`.${wanted}`) || wanted.endsWith(`.${lower}`) ? 1 : 0;
      return { candidate, score: suffix + similarity(lower, wanted) };
    })
    .filter(({ score }) => score > 0.4)
    .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
