// The three human gates as terminal dialogues: the plan, the diffs, the escalation. Each returns
// the ApprovalDecision the orchestrator expects. Unclear answers are asked again rather than
// guessed: a mistyped key must never approve anything.

import type { Colors } from 'picocolors/types';
import type { ApprovalDecision, CodingState, ExecutionPlan, FileDecision } from '../core/model';
import type { Prompter } from './prompts';
import { renderDiff } from './render/diff';
import { renderPlan } from './render/plan';
import type { BudgetReached, RunBudget } from '../core/workflow/budget';
import { visibleControls } from '../core/platform/text';

export const DEFAULT_EXTRA_ITERATIONS = 3;
const MAX_EXTRA_ITERATIONS = 100;

export interface GateIo {
  prompter: Prompter;
  /** Where diffs and hints are shown (stderr). */
  show: (text: string) => void;
  colors: Colors;
}

/** Accepted spellings of each answer: the key itself or its whole word, nothing looser. */
type Choice = readonly [key: string, ...words: string[]];

/** Asks until the answer is one of the choices; returns its key. */
async function choose(io: GateIo, question: string, choices: readonly Choice[]): Promise<string> {
  for (;;) {
    const answer = (await io.prompter.ask(question)).toLowerCase();
    const choice = choices.find((c) => c.includes(answer));
    if (choice) return choice[0];
    io.show(io.colors.yellow(`Please answer ${choices.map((c) => c[0]).join(', ')}.`));
  }
}

const YES_NO: readonly Choice[] = [
  ['y', 'yes'],
  ['n', 'no'],
];

async function askNonEmpty(io: GateIo, question: string): Promise<string> {
  for (;;) {
    const answer = await io.prompter.ask(question);
    if (answer) return answer;
    io.show(io.colors.yellow('An answer is needed here.'));
  }
}

/** Parses "2, 4 5" into step numbers; null when something is not a step of the plan. */
export function parseStepNumbers(answer: string, plan: ExecutionPlan): number[] | null {
  const parts = answer.split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return null;
  const known = new Set(plan.steps.map((s) => s.number));
  const numbers = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  return numbers.every((n) => known.has(n)) ? [...new Set(numbers)] : null;
}

/**
 * The plan without the given step numbers, renumbered from 1. Affected files that only the dropped
 * steps touched are dropped too; files no step names (listed by the planner for context) stay.
 */
export function dropPlanSteps(plan: ExecutionPlan, dropped: readonly number[]): ExecutionPlan {
  const kept = plan.steps.filter((s) => !dropped.includes(s.number));
  const keptFiles = new Set(kept.map((s) => s.filePath));
  const onlyDropped = new Set(plan.steps.filter((s) => dropped.includes(s.number) && !keptFiles.has(s.filePath)).map((s) => s.filePath));
  return {
    ...plan,
    steps: kept.map((step, index) => ({ ...step, number: index + 1 })),
    affectedFiles: plan.affectedFiles.filter((f) => !onlyDropped.has(f)),
  };
}

export async function askPlanDecision(io: GateIo, plan: ExecutionPlan): Promise<ApprovalDecision> {
  for (;;) {
    const key = await choose(io, 'Plan: [a]pprove / [r]eject with feedback / [e]dit (drop steps)? ', [
      ['a', 'approve'],
      ['r', 'reject'],
      ['e', 'edit'],
    ]);
    if (key === 'a') return { type: 'APPROVE' };
    if (key === 'r') return { type: 'REJECT', feedback: await askNonEmpty(io, 'Feedback for the planner: ') };
    const edited = await askPlanEdit(io, plan);
    if (edited) return { type: 'APPROVE', editedPlan: edited };
  }
}

/** Null when the person backs out of the edit; the plan question is then asked again. */
async function askPlanEdit(io: GateIo, plan: ExecutionPlan): Promise<ExecutionPlan | null> {
  for (;;) {
    const answer = await io.prompter.ask('Step numbers to drop (e.g. "2 4"; empty to go back): ');
    if (!answer) return null;
    const numbers = parseStepNumbers(answer, plan);
    if (!numbers) {
      io.show(io.colors.yellow(`Use step numbers from 1 to ${plan.steps.length}, separated by spaces or commas.`));
      continue;
    }
    if (numbers.length >= plan.steps.length) {
      io.show(io.colors.yellow('That drops every step; reject the plan with feedback instead.'));
      continue;
    }
    const edited = dropPlanSteps(plan, numbers);
    io.show(renderPlan(edited, io.colors));
    const key = await choose(io, 'Approve this edited plan? [y]es / [n]o: ', YES_NO);
    return key === 'y' ? edited : null;
  }
}

export async function askDiffDecision(io: GateIo, state: CodingState): Promise<ApprovalDecision> {
  // Each file's "MODIFY path (+n -m)" line was printed with the state just above: here, its whole diff (headed by its path).
  for (const edit of state.codeDiffs) io.show(`\n${renderDiff(edit.diffText, io.colors)}`);
  if (state.codeDiffs.length === 0) io.show(io.colors.dim('The coder proposed no file changes.'));
  const key = await choose(io, '\nChanges: [a]ccept all / [r]eject all with feedback / [s]elect per file? ', [
    ['a', 'accept'],
    ['r', 'reject'],
    ['s', 'select'],
  ]);
  if (key === 'a') return { type: 'APPROVE' };
  if (key === 'r') return { type: 'REJECT', feedback: await askNonEmpty(io, 'Feedback for the coder: ') };
  const files: FileDecision[] = [];
  for (const edit of state.codeDiffs) {
    const verdict = await choose(io, `Accept ${edit.type} ${visibleControls(edit.filePath)}? [y/n] `, YES_NO);
    if (verdict === 'y') {
      files.push({ filePath: edit.filePath, accepted: true });
    } else {
      const reason = await io.prompter.ask(`Why reject ${visibleControls(edit.filePath)}? (told to the coder; optional) `);
      files.push({ filePath: edit.filePath, accepted: false, ...(reason ? { reason } : {}) });
    }
  }
  return { type: 'APPROVE', files };
}

/** At an escalation the model cannot be reached (no key): stopping needs none, so it is offered still. */
export async function askStopWithoutModel(io: GateIo): Promise<boolean> {
  return (await choose(io, 'Stop the run (it cannot continue without the model)? [y]es / [n]o: ', YES_NO)) === 'y';
}

export async function askEscalationDecision(io: GateIo, state?: CodingState): Promise<ApprovalDecision> {
  const key = await choose(io, `[c]ontinue with guidance (+${DEFAULT_EXTRA_ITERATIONS} iterations) / [s]top? `, [
    ['c', 'continue'],
    ['s', 'stop'],
  ]);
  if (key === 's') return { type: 'STOP' };
  const budget = state ? await askRaisedBudget(io, state) : undefined;
  const guidance = await askNonEmpty(io, 'Guidance for the coder: ');
  if (budget) return { type: 'CONTINUE', guidance, additionalIterations: DEFAULT_EXTRA_ITERATIONS, budget };
  for (;;) {
    const answer = await io.prompter.ask(`More iterations [${DEFAULT_EXTRA_ITERATIONS}]: `);
    if (!answer) return { type: 'CONTINUE', guidance, additionalIterations: DEFAULT_EXTRA_ITERATIONS };
    const n = Number(answer);
    if (/^\d+$/.test(answer) && n >= 1 && n <= MAX_EXTRA_ITERATIONS) return { type: 'CONTINUE', guidance, additionalIterations: n };
    io.show(io.colors.yellow(`Give a whole number from 1 to ${MAX_EXTRA_ITERATIONS}, or press Enter for ${DEFAULT_EXTRA_ITERATIONS}.`));
  }
}

/** The decision for the gate `state` waits at, or null when it waits at none. */
export async function askGateDecision(io: GateIo, state: CodingState): Promise<ApprovalDecision | null> {
  switch (state.currentNode) {
    case 'WAIT_PLAN_APPROVAL':
      return state.plan ? askPlanDecision(io, state.plan) : { type: 'APPROVE' };
    case 'WAIT_DIFF_APPROVAL':
      return askDiffDecision(io, state);
    case 'WAIT_HUMAN':
      return askEscalationDecision(io, state);
    default:
      return null;
  }
}

/** A run stopped by a budget asks for a new limit of that budget before it goes on. */
async function askRaisedBudget(io: GateIo, state: CodingState): Promise<RunBudget | undefined> {
  const reached = (state.metadata.helpRequest as { budget?: BudgetReached } | undefined)?.budget;
  if (!reached) return undefined;
  for (;;) {
    const answer = (await io.prompter.ask(`New limit for ${reached.flag} (now ${reached.limit}): `)).trim();
    const value = Number(answer);
    if (answer && Number.isFinite(value) && value > reached.limit) return { [reached.budget]: value };
    io.show(io.colors.yellow(`Give a number above ${reached.limit}.`));
  }
}
