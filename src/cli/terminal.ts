// What the CLI needs to know about its streams: are they terminals, may we colour, and a Logger
// that writes to stderr (stdout is kept for data: JSON lines, tables).

import pc from 'picocolors';
import type { Colors } from 'picocolors/types';
import type { Logger } from '../core/host';
import { redact, redactDeep } from '../core/redact';
import { terminalLine } from './render/terminal-text';

export type { Colors };

/** The streams and environment the CLI runs with; tests pass their own. */
export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Resolves relative --workspace; defaults to process.cwd(). */
  cwd?: string;
  /** Subscribes to Ctrl-C (SIGINT); returns the unsubscribe. Absent in tests that need no signals. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Ends the process at once: a second Ctrl-C. Absent in tests. */
  exitNow?: (code: number) => void;
}

export function isTty(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** no-color.org: NO_COLOR set and non-empty turns colour off; FORCE_COLOR turns it on for pipes. */
export function colorsFor(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv): Colors {
  if (env.NO_COLOR) return pc.createColors(false);
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return pc.createColors(true);
  return pc.createColors(isTty(stream));
}

/** Every line the CLI prints goes through the redactor: a secret value never reaches a terminal or a pipe. */
export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${terminalLine(redact(text))}\n`);
}

/**
 * stdout's one JSON-lines writer (`--json` states, `runs --json`, `trace --json`): every string in
 * `value` is redacted before it is serialised, so a secret JSON would escape (a quote, a backslash)
 * is still found whole.
 */
export function writeJsonLine(stream: NodeJS.WritableStream, value: unknown): void {
  // JSON escapes C0 controls itself; DEL, C1 controls and bidi overrides are escaped too (still valid JSON).
  stream.write(`${JSON.stringify(redactDeep(value)).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, unicodeEscape)}\n`);
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Debug lines only with IRONBEES_DEBUG set: the progress lines already say what happens. `line`
 * writes one whole line (the CLI passes its StderrLines, which keeps a live line whole).
 */
export function createStderrLogger(
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  colors: Colors,
  line: (text: string) => void = (text) => writeLine(stderr, text),
): Logger {
  const debug = Boolean(env.IRONBEES_DEBUG);
  return {
    debug: (message) => {
      if (debug) line(colors.dim(`debug: ${message}`));
    },
    info: (message) => line(message),
    warn: (message) => line(colors.yellow(`warning: ${message}`)),
    error: (message) => line(colors.red(`error: ${message}`)),
  };
}
