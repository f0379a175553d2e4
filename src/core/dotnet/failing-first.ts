// Failing-first: within the affected test projects, the tests that failed in the previous validation run
// first, alone. If one still fails, that is the iteration's verdict (the coder hears it at once and the
// rest is reported as not run); if they all pass, the whole affected set runs as before.
// Each platform takes its own filter; a project whose framework or test names cannot be filtered
// exactly is left out of the first round (it runs in the full round).

import type { TestRunnerFacts } from './project-file';
import type { TestRunKind } from './test-platform';

/** A data-driven row's name without its arguments: "A.B.C(x: 1)" and "A.B.C (1,2)" are method A.B.C. */
export function methodOf(testName: string): string {
  return testName.replace(/\s*\(.*\)\s*$/, '');
}

/** Characters that VSTest's filter syntax gives a meaning to; a name with one is not filtered. */
const FILTER_SPECIAL = /[\\()&|=!~,\s]/;

/**
 * Arguments that run only the given tests (by method: every row of a failing theory reruns), or null
 * when this project cannot be filtered exactly.
 */
export function filterArgsFor(kind: TestRunKind, facts: TestRunnerFacts | undefined, testNames: readonly string[]): string[] | null {
  const methods = [...new Set(testNames.map(methodOf))];
  if (methods.length === 0 || methods.some((method) => method === '' || FILTER_SPECIAL.test(method))) return null;
  const vstestFilter = methods.map((method) => `FullyQualifiedName=${method}`).join('|');
  if (kind === 'vstest') return ['--filter', vstestFilter];
  if (kind === 'vstest-in-mtp') return null;
  // xunit v3 on the platform filters by method; MSTest (and NUnit's runner) take the VSTest syntax.
  if (facts?.xunitV3) return methods.flatMap((method) => ['--filter-method', method]);
  return facts?.mtpRunner ? ['--filter', vstestFilter] : null;
}

/** Test names that are not a project-level failure ("[test run] Name"). */
export function realTestNames(names: readonly string[]): string[] {
  return names.filter((name) => !name.startsWith('[test run] '));
}
