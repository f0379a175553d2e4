// Reading the values node:util's parseArgs gives: shared by the parsers of args.ts, acp-args.ts and
// the other per-command parsers. Each refusal is a UsageError naming the option and the value given.

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

/** The longest timeout accepted, in seconds: a day. */
const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;

export function onePositional(positionals: string[], command: CommandName, what: string): string {
  if (positionals.length !== 1 || !positionals[0].trim()) {
    throw new UsageError(`${command} needs exactly one argument: ${what}.`, command);
  }
  return positionals[0].trim();
}

export function integerOption(values: Values, name: string, fallback: number, max: number, command: CommandName = 'run'): number {
  const raw = stringValue(values, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${raw}").`, command);
  }
  return value;
}

export function secondsOption(values: Values, name: string, fallbackSeconds: number): number {
  const raw = stringValue(values, name);
  if (raw === undefined) return fallbackSeconds * 1000;
  const seconds = Number(raw);
  if (!raw.trim() || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new UsageError(`--${name} is in seconds and must be a positive number up to ${MAX_TIMEOUT_SECONDS} (got "${raw}").`, 'run');
  }
  return Math.round(seconds * 1000);
}
