// Reading the values node:util's parseArgs gives: shared by the parsers of args.ts and acp-args.ts.

import { UsageError } from './exit-codes';
import type { CommandName } from './command-names';

export type Values = Record<string, string | boolean | string[] | undefined>;

export function stringValue(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function choiceOption<T extends string>(
  values: Values,
  name: string,
  choices: readonly T[],
  fallback: T,
  command: CommandName = 'run',
): T {
  const raw = stringValue(values, name);
  if (raw === undefined) return fallback;
  const match = choices.find((c) => c === raw.trim().toLowerCase());
  if (!match) throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got "${raw}").`, command);
  return match;
}
