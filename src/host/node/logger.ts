// A Logger that writes to stderr: stdout belongs to the CLI's output (--json prints one state per
// line there). Quiet by default: debug lines appear only when asked for.

import pc from 'picocolors';
import type { Logger } from '../../core/host';
import { redact } from '../../core/redact';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface StderrLoggerOptions {
  /** Lowest level written (default: IRONBEES_LOG_LEVEL, else info). */
  level?: LogLevel;
  /** Where lines go (default: process.stderr); tests pass their own. */
  write?: (line: string) => void;
  /** Colour the level tag (default: when stderr is a terminal). */
  color?: boolean;
}

const COLOURS: Record<Exclude<LogLevel, 'silent'>, (s: string) => string> = {
  debug: pc.dim,
  info: pc.cyan,
  warn: pc.yellow,
  error: pc.red,
};

export class StderrLogger implements Logger {
  private readonly threshold: number;
  private readonly write: (line: string) => void;
  private readonly color: boolean;

  constructor(options: StderrLoggerOptions = {}) {
    this.threshold = LOG_LEVELS.indexOf(options.level ?? levelFromEnv() ?? 'info');
    this.write = options.write ?? ((line) => process.stderr.write(`${line}\n`));
    this.color = options.color ?? Boolean(process.stderr.isTTY);
  }

  debug(message: string): void {
    this.log('debug', message);
  }

  info(message: string): void {
    this.log('info', message);
  }

  warn(message: string): void {
    this.log('warn', message);
  }

  error(message: string): void {
    this.log('error', message);
  }

  private log(level: Exclude<LogLevel, 'silent'>, message: string): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    const tag = this.color ? COLOURS[level](level) : level;
    this.write(`[ironbees] ${tag}: ${redact(message)}`);
  }
}

function levelFromEnv(): LogLevel | undefined {
  const value = process.env.IRONBEES_LOG_LEVEL?.trim().toLowerCase();
  return LOG_LEVELS.find((l) => l === value);
}
