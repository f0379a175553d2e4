// Per-run budgets: what a run may spend in dollars, in tokens and in minutes. Checked after every
// model call (orchestrator.ts); the first budget reached stops the step at that boundary and
// escalates, naming the budget, so a person can raise it and continue or stop. A cost budget with
// a model whose price is unknown cannot be held, so that escalates too rather than run on blind.

import type { Usage, WorkflowContext } from '../model';

export interface RunBudget {
  maxCostUsd?: number;
  /** Every token the model processed: input, output, cache reads and cache writes. */
  maxTokens?: number;
  /** Wall-clock minutes of the run in this session (since it was started or resumed). */
  maxMinutes?: number;
}

export type BudgetName = keyof RunBudget;

export interface BudgetReached {
  budget: BudgetName;
  /** The CLI flag that sets it, for the message and the hand-off. */
  flag: '--max-cost' | '--max-tokens' | '--max-minutes';
  limit: number;
  /** What was spent when it was checked (dollars, tokens or minutes); null when the cost is unknown. */
  spent: number | null;
  message: string;
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** The first budget the run has reached, or null. */
export function budgetReached(budget: RunBudget | undefined, usage: Usage, elapsedMs: number): BudgetReached | null {
  if (!budget) return null;
  if (budget.maxCostUsd !== undefined) {
    if (usage.costUnknown) {
      return {
        budget: 'maxCostUsd',
        flag: '--max-cost',
        limit: budget.maxCostUsd,
        spent: null,
        message: `Budget --max-cost $${budget.maxCostUsd} cannot be held: a model without a known price was used, so the cost is unknown (${totalTokens(usage)} tokens so far).`,
      };
    }
    if (usage.costUsd >= budget.maxCostUsd) {
      return {
        budget: 'maxCostUsd',
        flag: '--max-cost',
        limit: budget.maxCostUsd,
        spent: usage.costUsd,
        message: `Budget reached: --max-cost $${budget.maxCostUsd} (spent $${usage.costUsd.toFixed(4)}).`,
      };
    }
  }
  const tokens = totalTokens(usage);
  if (budget.maxTokens !== undefined && tokens >= budget.maxTokens) {
    return {
      budget: 'maxTokens',
      flag: '--max-tokens',
      limit: budget.maxTokens,
      spent: tokens,
      message: `Budget reached: --max-tokens ${budget.maxTokens} (used ${tokens} tokens).`,
    };
  }
  const minutes = elapsedMs / 60_000;
  if (budget.maxMinutes !== undefined && minutes >= budget.maxMinutes) {
    return {
      budget: 'maxMinutes',
      flag: '--max-minutes',
      limit: budget.maxMinutes,
      spent: Math.round(minutes * 100) / 100,
      message: `Budget reached: --max-minutes ${budget.maxMinutes} (ran ${minutes.toFixed(1)} minutes).`,
    };
  }
  return null;
}

/** A raised budget replaces the old one field by field; a field not given stays as it was. */
export function raiseBudget(current: RunBudget | undefined, raised: RunBudget | undefined): RunBudget | undefined {
  if (!raised) return current;
  return { ...current, ...Object.fromEntries(Object.entries(raised).filter(([, value]) => typeof value === 'number' && value > 0)) };
}

/** The person raised a budget at WAIT_HUMAN: the run goes on under the new limits. */
export function withBudget(workflow: WorkflowContext, raised: RunBudget | undefined): WorkflowContext {
  if (!raised) return workflow;
  const budget = raiseBudget(workflow.budget, raised);
  return budget ? { ...workflow, budget } : workflow;
}
