// The plan's `knownFailures`: which failing tests they excuse (only a plan a person approved), and
// what the run says when the planner's list was set aside.

import type { RunContext } from './run-context';

/**
 * The failing tests that do not block SUCCESS: the plan's `knownFailures`, only when a person
 * approved the plan. The model alone never excuses a failure.
 */
export function excusedFailures(context: RunContext): string[] {
  if (context.planApprovedUnattended === true) return [];
  const approved = context.planApprovedByPerson ?? context.workflow.approval.plan === 'always';
  return approved ? (context.plan?.knownFailures ?? []) : [];
}

/** The planner's `knownFailures` that count for nothing because no person approved the plan. */
export function ignoredKnownFailures(context: RunContext): string[] {
  const named = context.plan?.knownFailures ?? [];
  return excusedFailures(context).length === named.length ? [] : named;
}

/** What the state, the log and HANDOFF.md say when the planner's list was set aside. */
export function ignoredKnownFailuresNote(ignored: readonly string[], unattended = false): string {
  if (unattended) {
    return (
      `The planner named ${ignored.length} failing test(s) to leave alone (${ignored.join(', ')}), but the plan was approved by --yes, ` +
      'which excuses no failing test (--accept-known-failures does), so they were not excused: they must pass like every other test.'
    );
  }
  return (
    `The planner named ${ignored.length} failing test(s) to leave alone (${ignored.join(', ')}), but no person approved the plan ` +
    '(plan approval is "never"), so they were not excused: they must pass like every other test.'
  );
}
