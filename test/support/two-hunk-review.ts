// A scripted run whose first proposal has two hunks in one file, for the per-hunk review tests of
// `ironbees serve` (HTTP and the web page). Hunk 1 adds a comment above the class (accepted);
// hunk 2 "fixes" Divide with a detour through double (rejected with REASON). The accepted half
// leaves the test failing, so the run goes back to the coder, who reads REASON and proposes the
// plain fix; accepted, the run ends in SUCCESS.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { toolUse } from './fake-anthropic';
import type { FakeTurn } from './fake-anthropic';
import { REPO_ROOT } from './cli-harness';

export const SOURCE = 'src/Calculator/Calculator.cs';
export const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE), 'utf8');
/** Model text that looks like HTML: the page must show it as text, never run it. */
export const DOC_COMMENT = '// Integer arithmetic. <img src=x onerror="window.__ironbeesXss=1"><b>not bold</b>';
export const REASON = 'Use plain integer division: return a / b; no double detour.';
/** After the review: hunk 1 applied, hunk 2 not. */
export const AFTER_REVIEW = ORIGINAL.replace('public static class Calc', `${DOC_COMMENT}\npublic static class Calc`);
/** After the coder's second proposal is accepted. */
export const FIXED = AFTER_REVIEW.replace('return a * b;', 'return a / b;');

const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Document Calc and fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: '6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

/** A first plan, for a test that rejects it (the planner then submits the plan of twoHunkTurns). */
export function firstPlanTurn(): FakeTurn {
  return toolUse('submit_plan', { ...PLAN, plan: { ...PLAN.plan, summary: 'Fix the operator in Calc.Divide only.' } });
}

/** Plan, then the two-hunk proposal. */
export function twoHunkTurns(): FakeTurn[] {
  return [
    toolUse('submit_plan', PLAN),
    toolUse('str_replace_based_edit_tool', {
      command: 'str_replace',
      path: SOURCE,
      old_str: 'public static class Calc',
      new_str: `${DOC_COMMENT}\npublic static class Calc`,
    }),
    toolUse('str_replace_based_edit_tool', {
      command: 'str_replace',
      path: SOURCE,
      old_str: 'return a * b;',
      new_str: 'return (int)((double)a / b);',
    }),
    toolUse('submit_changes', { summary: 'Documented Calc; fixed Divide.' }),
  ];
}

/** The coder's second attempt, after reading the rejection. */
export function plainFixTurns(): FakeTurn[] {
  return [
    toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
    toolUse('submit_changes', { summary: 'Divide uses integer division.' }),
  ];
}
