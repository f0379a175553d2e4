// What keeps the coder inside the approved plan, and how it says the plan is wrong.
//
// A first submission that changes files the plan does not name (a test's expected value, a project
// file) is refused, naming them: it is the usual shape of "making the test pass" rather than fixing
// the code. The coder may then undo them, submit again as it is (the person reviews every file), or
// say the plan or a test is wrong with a summary that starts with BLOCKED: — the run then stops
// and the person reads why (coder/blocked error → ESCALATE, workflow/stuck.ts).

import { AgentModeError } from '../../errors';
import type { ExecutionPlan, FileEdit, Usage } from '../../model';

export const BLOCKED_PREFIX = 'BLOCKED:';
export const BLOCKED_CODE = 'CODER_BLOCKED';

/** The coder said the plan or a test is wrong: the run escalates to the person with its words. */
export class CoderBlockedError extends AgentModeError {
  constructor(summary: string, usage: Usage) {
    super(`The coder stopped and asks you to decide: ${summary.slice(BLOCKED_PREFIX.length).trim() || '(no reason given)'}`, BLOCKED_CODE, {
      agentName: 'coder',
      usage,
    });
  }
}

export function isBlockedSummary(summary: string): boolean {
  return summary.trimStart().toUpperCase().startsWith(BLOCKED_PREFIX);
}

/** The files a plan names (its steps' and affectedFiles), workspace-relative with forward slashes. */
export function planFiles(plan: ExecutionPlan): Set<string> {
  const tidy = (p: string): string => p.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  return new Set([...plan.affectedFiles, ...plan.steps.map((step) => step.filePath)].map(tidy).filter((p) => p !== ''));
}

/** The edited files the plan does not name, in path order. */
export function outsidePlan(plan: ExecutionPlan, edits: readonly FileEdit[]): string[] {
  const inPlan = planFiles(plan);
  return edits
    .map((edit) => edit.filePath)
    .filter((file) => !inPlan.has(file))
    .sort();
}

export function outsidePlanMessage(outside: readonly string[], plan: ExecutionPlan): string {
  return (
    `Not submitted: you changed files the approved plan does not name: ${outside.join(', ')}. ` +
    `The plan covers ${[...planFiles(plan)].join(', ') || '(no files)'}. ` +
    'Change the code the plan names rather than tests or project files. Then either undo those changes (str_replace them back) and call submit_changes again; ' +
    'or, if the change is really needed, call submit_changes again and say why in the summary (the person reviews every file); ' +
    `or, if the plan or a test is wrong, call submit_changes with a summary that starts with "${BLOCKED_PREFIX}" and says why: the run stops, nothing is applied, and the person reads it.`
  );
}
