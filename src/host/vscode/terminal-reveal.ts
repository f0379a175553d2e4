// When a dotnet task's terminal is brought up on its own. Pure (no `vscode`), so a plain-Node test
// holds the rule: never for tests (a failing test in the baseline is expected, the panel shows it),
// never for validation (the panel shows the agent's build errors), only when the baseline cannot build.

import type { RunResult } from '../../core/host';

/** The dotnet verbs that run tests (`run`, `vstest`, `exec`: a test project run directly). */
export const TEST_VERBS: ReadonlySet<string> = new Set(['test', 'run', 'vstest', 'exec']);

/** The baseline's build (or restore) failed or hit its time limit: the workspace does not build before any edit. */
export function shouldRevealTerminal(
  label: string | undefined,
  verb: string,
  result: Pick<RunResult, 'exitCode' | 'timedOut' | 'cancelled'>,
): boolean {
  if (label !== 'baseline' || TEST_VERBS.has(verb) || result.cancelled) return false;
  return result.exitCode !== 0 || result.timedOut;
}
