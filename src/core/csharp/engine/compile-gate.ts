// The check before review: when the coder submits, Ironbees compiles the staged edits itself
// (in memory, through the Host's CodeChecker). New compile errors go back to the coder as the
// answer to submit_changes, in the same iteration, for a bounded number of rounds; only then does
// the person see the diff, with any errors still left listed in the summary. Every round is a
// `compile_check` line in events.jsonl. VALIDATE still runs the real build and tests.

import type { CodeCheckResult, Host } from '../../host';
import type { StagedOverlay } from '../../workspace/overlay';
import type { TraceSink } from '../../trace';
import { checkReport, errorLine, stagedSources, unknownReport } from './code-checker';
import { EngineUnavailableError } from './errors';

/** Submissions bounced back for compile errors before the diff goes to review anyway. */
export const COMPILE_GATE_ROUNDS = 2;

export type GateVerdict =
  /** Compiles (or could not be checked): on to review. `note` is added to the summary when set. */
  | { pass: true; note?: string }
  /** Back to the coder with this message. */
  | { pass: false; message: string };

export interface GateOptions {
  host: Host;
  overlay: StagedOverlay;
  trace?: TraceSink;
  signal?: AbortSignal;
  /** Bounces already spent in this coder turn. */
  bounced: number;
  maxRounds?: number;
}

export async function compileGate(options: GateOptions): Promise<GateVerdict> {
  const { host, trace } = options;
  const round = options.bounced + 1;
  const started = host.clock.now();
  const record = (ok: boolean, errors: number, detail?: string): void =>
    trace?.record({
      kind: 'compile_check',
      at: new Date(host.clock.now()).toISOString(),
      round,
      ok,
      errors,
      durationMs: host.clock.now() - started,
      ...(detail ? { detail } : {}),
    });
  if (!host.codeCheck) return { pass: true };
  const { files, unchecked } = await stagedSources(options.overlay);
  if (files.length === 0) return { pass: true };
  let result: CodeCheckResult;
  try {
    result = await host.codeCheck.check(files, { signal: options.signal, buildInputs: unchecked });
  } catch (error) {
    if (!(error instanceof EngineUnavailableError)) throw error;
    // No check is not a failed check: the diff goes to review and the build decides.
    record(true, 0, `not checked: ${error.message}`);
    return { pass: true };
  }
  // Projects the engine could not judge never bounce: the build decides there, and the trace says so.
  const unknown = unknownReport(result).trim();
  const errorsShown = result.total > 0 ? result.errors.slice(0, 5).map(errorLine).join('\n') : '';
  record(result.total === 0, result.total, [errorsShown, unknown].filter(Boolean).join('\n') || undefined);
  if (result.total === 0) return { pass: true };
  const maxRounds = options.maxRounds ?? COMPILE_GATE_ROUNDS;
  if (options.bounced < maxRounds) {
    return {
      pass: false,
      message:
        `Not submitted yet: the system compiled your staged edits (check ${round} of ${maxRounds + 1}) and found ` +
        `${checkReport(result, unchecked)}\nFix them, then call submit_changes again.`,
    };
  }
  return {
    pass: true,
    note: `Compile errors left after ${round} checks (the reviewer sees them):\n${result.errors.map(errorLine).join('\n')}`,
  };
}
