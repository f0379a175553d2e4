// What the supervisor does when an agent falls silent (APMAS's timeout policy): the first
// time it restarts the agent with a continuation context (what it had done, the files it had
// staged, its last words), the second time it restarts it fresh with a reduced scope (the steps
// that remain), the third time a person is asked. Pure: the watchdog (watchdog.ts) and the runner
// (supervise.ts) act on what this decides.

import { clip } from '../../platform/text';

/** How long an agent may be silent (no model output, no tool call) before it is stopped, per role. */
export const DEFAULT_SILENCE_SECONDS: Readonly<Record<string, number>> = {
  // APMAS gives the developer the longest limit and the architect and reviewer a third to half of
  // it; the developer here gets APMAS's heartbeat timeout (10 minutes), the others half of that.
  planner: 300,
  reviewer: 300,
  coder: 600,
};
/** Any other agent: APMAS's heartbeat timeout. */
export const DEFAULT_SILENCE_SECONDS_OTHER = 600;

/** The silence limit of `agent` in ms: the run's `--agent-timeout` when set, else the role's default. */
export function silenceLimitMs(agent: string, configuredMs: number | undefined): number {
  if (configuredMs !== undefined && Number.isFinite(configuredMs) && configuredMs > 0) return configuredMs;
  return (DEFAULT_SILENCE_SECONDS[agent] ?? DEFAULT_SILENCE_SECONDS_OTHER) * 1000;
}

export type TimeoutAction = 'restart_with_context' | 'restart_reduced_scope' | 'escalate';

/** Timeouts of one agent in one step, counted from 1, before a person is asked. */
export const MAX_TIMEOUTS = 3;

/** What follows the `count`-th timeout of an agent within one step. */
export function actionAfterTimeout(count: number): TimeoutAction {
  if (count <= 1) return 'restart_with_context';
  if (count < MAX_TIMEOUTS) return 'restart_reduced_scope';
  return 'escalate';
}

/** What the supervisor knows of an agent's work when it is stopped. */
export interface AgentProgress {
  /** One line per tool call it made, in order (as the activity says them). */
  done: string[];
  /** The files it had staged (workspace-relative). */
  stagedFiles: string[];
  /** The words of its last model answer, or of the answer in flight when it stopped. */
  lastWords: string;
}

const MAX_DONE_LINES = 40;
const LAST_WORDS_CHARS = 2000;

/** The first message's preface after the first timeout: carry on from where it was. */
export function continuationContext(agent: string, silentSeconds: number, progress: AgentProgress): string {
  const done = progress.done.slice(-MAX_DONE_LINES);
  const skipped = progress.done.length - done.length;
  return [
    '# Continuation context',
    '',
    `You were interrupted: you (the ${agent}) were working on this task but were silent for ${formatSeconds(silentSeconds)} ` +
      '(no answer, no tool call), so you were stopped and started again. Continue from where you left off; do not start from scratch.',
    '',
    '## What you had done',
    '',
    done.length > 0
      ? [...(skipped > 0 ? [`(${skipped} earlier calls not shown)`] : []), ...done.map((line) => `- ${line}`)].join('\n')
      : '(no tool call yet)',
    '',
    '## Files you had staged (they still hold your changes)',
    '',
    stagedList(progress.stagedFiles),
    '',
    '## Your last words',
    '',
    progress.lastWords.trim() ? clip(progress.lastWords.trim(), LAST_WORDS_CHARS) : '(none)',
  ].join('\n');
}

/** The first message's preface after the second timeout: a fresh start on what remains. */
export function reducedScopeContext(
  agent: string,
  silentSeconds: number,
  stagedFiles: readonly string[],
  remaining: string | null,
): string {
  return [
    '# Restarted with a reduced scope',
    '',
    `You (the ${agent}) were interrupted twice: silent for ${formatSeconds(silentSeconds)} each time, so you start fresh on a smaller task. ` +
      'Keep each step short and call a tool early.',
    '',
    '## Files already staged (keep these changes; do not redo them)',
    '',
    stagedList(stagedFiles),
    ...(remaining ? ['', '## What remains', '', remaining] : []),
  ].join('\n');
}

/** The reason a person reads when the third timeout escalates. */
export function escalationReason(agent: string, silentSeconds: number, count: number, stagedFiles: readonly string[]): string {
  const staged = stagedFiles.length > 0 ? ` Staged when it stopped: ${stagedFiles.join(', ')}.` : '';
  return (
    `The ${agent} was silent for ${formatSeconds(silentSeconds)} (no model output, no tool call) ${count} times and was stopped each time ` +
    `(restarted with its progress, then with a reduced scope).${staged} Check the model provider, or give guidance and continue.`
  );
}

function stagedList(files: readonly string[]): string {
  return files.length > 0 ? files.map((file) => `- ${file}`).join('\n') : '(none)';
}

function formatSeconds(seconds: number): string {
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
