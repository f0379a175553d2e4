// The options of `ironbees run` (and `resume`, which shares how a session drives a run) that take
// more than one line to read: the activity level, the budget, the fallback model, --context files,
// --worktree, --parallel. Each returns the RunArgs fields it sets, absent when the option was not given.

import * as path from 'node:path';
import type { ProviderName } from '../core/llm/providers/choice';
import { PROVIDER_NAMES } from '../core/llm/providers/choice';
import type { RunBudget } from '../core/workflow/budget';
import { UsageError } from './exit-codes';
import { choiceOption, integerOption, stringValue } from './option-values';
import type { Values } from './option-values';

/** --max-iterations' upper bound (run and bench). */
export const MAX_ITERATIONS_LIMIT = 100;

/** --activity: how much of the live activity is printed on stderr (render/activity.ts). */
export const ACTIVITY_LEVELS = ['quiet', 'normal', 'verbose'] as const;
export type ActivityLevel = (typeof ACTIVITY_LEVELS)[number];

export function acceptKnownFailures(values: Values): { acceptKnownFailures?: true } {
  return values['accept-known-failures'] === true ? { acceptKnownFailures: true } : {};
}

/** --parallel N: a whole number from 1; 1 (the default) runs the phases one at a time, as without it. */
export function parallelOption(values: Values): { parallel?: number } {
  const parallel = integerOption(values, 'parallel', 1, 16);
  if (parallel > 1 && values.worktree === true)
    throw new UsageError('--parallel goes without --worktree: its phases already work in worktrees.', 'run');
  return parallel > 1 ? { parallel } : {};
}

export function worktreeOptions(values: Values, cwd: string): { worktree?: true; worktreesDir?: string } {
  const dir = stringValue(values, 'worktrees-dir');
  if (dir !== undefined && values.worktree !== true) throw new UsageError('--worktrees-dir goes with --worktree.', 'run');
  if (dir !== undefined && !dir.trim()) throw new UsageError('--worktrees-dir needs a folder.', 'run');
  if (values.worktree !== true) return {};
  return { worktree: true, ...(dir !== undefined ? { worktreesDir: path.resolve(cwd, dir.trim()) } : {}) };
}

export function activityOptions(values: Values): { activity: ActivityLevel; activityJson: boolean } {
  return { activity: choiceOption(values, 'activity', ACTIVITY_LEVELS, 'normal'), activityJson: values['activity-json'] === true };
}

export function fallbackOptions(values: Values): { fallback?: { provider: ProviderName; model: string } } {
  const model = stringValue(values, 'fallback-model')?.trim();
  if (values['fallback-provider'] === undefined && model === undefined) return {};
  if (!model)
    throw new UsageError('--fallback-model is needed with a fallback, e.g. --fallback-provider openai --fallback-model gpt-4.1.', 'run');
  return { fallback: { provider: choiceOption(values, 'fallback-provider', PROVIDER_NAMES, 'anthropic'), model } };
}

export function budgetOptions(values: Values): { budget?: RunBudget } {
  const budget: RunBudget = {};
  const positive = (name: string, whole: boolean): number | undefined => {
    const raw = stringValue(values, name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!raw.trim() || !Number.isFinite(value) || value <= 0 || (whole && !Number.isSafeInteger(value))) {
      throw new UsageError(`--${name} must be a positive ${whole ? 'whole number' : 'number'} (got "${raw}").`, 'run');
    }
    return value;
  };
  const cost = positive('max-cost', false);
  const tokens = positive('max-tokens', true);
  const minutes = positive('max-minutes', false);
  if (cost !== undefined) budget.maxCostUsd = cost;
  if (tokens !== undefined) budget.maxTokens = tokens;
  if (minutes !== undefined) budget.maxMinutes = minutes;
  return Object.keys(budget).length ? { budget } : {};
}

export function contextOption(values: Values, cwd: string): { contextFiles?: string[] } {
  const raw = values.context;
  if (!Array.isArray(raw) || raw.length === 0) return {};
  for (const file of raw) if (!file.trim()) throw new UsageError('--context needs a file, e.g. --context docs/conventions.md.', 'run');
  return { contextFiles: raw.map((file) => path.resolve(cwd, file.trim())) };
}
