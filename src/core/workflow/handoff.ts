// HANDOFF.md: what a person needs to take over a run — what was asked, the plan, what was tried
// each iteration, what still fails, and what it cost. Written at escalation and at the end, and on
// request for a run that was interrupted (the window closed mid-run), which neither wrote.

import type { CodingState, FileEdit, IterationRecord } from '../model';
import { TERMINAL_NODES, failuresIn } from '../model';
import { nodeSpec } from '../nodes';
import type { AttemptRecord, RewindRecord } from './run-context';
import { phaseSections } from './phase-handoff';
import { reviewHandoffLines } from './review-step';

const MAX_LISTED = 20;
/** Per attempt: enough to see what was done, small enough that state.json and the hand-off stay readable. */
export const MAX_ATTEMPT_DIFF_CHARS = 6_000;
/** The latest attempts keep their diffs in the hand-off; older ones are only listed. */
const MAX_ATTEMPTS_WITH_DIFFS = 8;

/** A decided proposal, with its diffs joined and capped at a line boundary. */
export function attemptOf(
  iteration: number,
  outcome: AttemptRecord['outcome'],
  edits: readonly FileEdit[],
  feedback?: string | null,
): AttemptRecord {
  const full = edits.map((edit) => edit.diffText.trimEnd()).join('\n');
  let diff = full;
  if (full.length > MAX_ATTEMPT_DIFF_CHARS) {
    const cut = full.lastIndexOf('\n', MAX_ATTEMPT_DIFF_CHARS);
    diff = full.slice(0, cut > 0 ? cut : MAX_ATTEMPT_DIFF_CHARS);
    diff += `\n… ${full.length - diff.length} more characters of diff not shown`;
  }
  return {
    iteration,
    outcome,
    files: edits.map((edit) => edit.filePath),
    ...(feedback?.trim() ? { feedback: feedback.trim() } : {}),
    diff,
  };
}

function attemptsOf(state: CodingState): AttemptRecord[] {
  const attempts = state.metadata.attempts;
  return Array.isArray(attempts) ? (attempts as AttemptRecord[]) : [];
}

function section(title: string, body: string[]): string[] {
  return body.length ? [`## ${title}`, '', ...body, ''] : [];
}

function planLines(state: CodingState): string[] {
  if (!state.plan) return ['(no plan was made)'];
  const steps = state.plan.steps.map(
    (s) => `${s.number}. **${s.actionType}** \`${s.filePath}\` — ${s.description}${s.rationale ? ` _(${s.rationale})_` : ''}`,
  );
  return [state.plan.summary, '', ...steps, '', `Complexity: ${state.plan.complexity}`];
}

function fileList(files: readonly string[]): string {
  return files.length ? files.map((f) => `\`${f}\``).join(', ') : 'no files';
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function iterationLine(r: IterationRecord, attempt: AttemptRecord | undefined): string {
  const detail = r.buildOk ? `${r.newFailures} new test failure(s)` : `${r.newErrors} new build error(s)`;
  const rejectedPart = attempt?.feedback ? ` The person rejected part of it: ${oneLine(attempt.feedback)}` : '';
  return `- Iteration ${r.iteration}: ${r.outcome} — ${detail}; changed ${fileList(r.files)}.${r.summary ? ` Coder: ${r.summary}` : ''}${rejectedPart}`;
}

/**
 * Each validated iteration, and each proposal the person rejected before it, in the order they
 * happened; an applied proposal whose validation never finished is listed too.
 */
function triedLines(iterations: readonly IterationRecord[], attempts: readonly AttemptRecord[]): string[] {
  const lines: string[] = [];
  const byIteration = [...new Set([...iterations.map((r) => r.iteration), ...attempts.map((a) => a.iteration)])].sort((a, b) => a - b);
  for (const iteration of byIteration) {
    for (const attempt of attempts.filter((a) => a.iteration === iteration && a.outcome === 'rejected')) {
      const why = attempt.feedback ? ` Feedback: ${oneLine(attempt.feedback)}` : '';
      lines.push(`- Iteration ${iteration}: proposal rejected by the person — ${fileList(attempt.files)}.${why}`);
    }
    const applied = attempts.find((a) => a.iteration === iteration && a.outcome === 'applied');
    const record = iterations.find((r) => r.iteration === iteration);
    if (record) lines.push(iterationLine(record, applied));
    else if (applied) lines.push(`- Iteration ${iteration}: applied ${fileList(applied.files)}; validation did not finish.`);
  }
  return lines;
}

/** A fence longer than any run of backticks in the text, so a diff of a Markdown file cannot end it. */
function fenced(text: string, language: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text, fence];
}

function diffLines(attempts: readonly AttemptRecord[]): string[] {
  const shown = attempts.slice(-MAX_ATTEMPTS_WITH_DIFFS);
  const lines: string[] = [];
  if (attempts.length > shown.length)
    lines.push(`(${attempts.length - shown.length} earlier proposal(s) not shown; state.json keeps them.)`, '');
  for (const attempt of shown) {
    const what =
      attempt.outcome === 'applied'
        ? 'applied'
        : attempt.outcome === 'rejected'
          ? 'rejected by the person'
          : 'not applied: a file changed on disk under review';
    lines.push(`### Iteration ${attempt.iteration} — ${what}`, '');
    lines.push(...(attempt.diff ? fenced(attempt.diff, 'diff') : ['(no changes)']), '');
  }
  return lines;
}

function failingLines(state: CodingState): string[] {
  const lines: string[] = [];
  const errors = state.buildResult?.errors ?? [];
  for (const e of errors.slice(0, MAX_LISTED)) {
    const where = e.filePath ? `${e.filePath}(${e.line},${e.column})` : '(no file)';
    lines.push(`- Build: ${where} ${e.code}: ${e.message}`);
  }
  if (errors.length > MAX_LISTED) lines.push(`- … and ${errors.length - MAX_LISTED} more build errors`);
  const failures = state.testResult?.failures ?? [];
  const failing = state.testResult ? failuresIn(state.testResult) : 0;
  for (const f of failures.slice(0, MAX_LISTED)) {
    const firstLine = f.message.split('\n')[0];
    lines.push(`- Test: \`${f.testName}\`${f.preExisting ? ' (already failing before the run)' : ''} — ${firstLine}`);
  }
  const listed = Math.min(MAX_LISTED, failures.length);
  if (failing > listed)
    lines.push(
      `- … and ${failing - listed} more failing tests${state.testResult?.resultsFile ? ` (every failure in full: \`${state.testResult.resultsFile}\`)` : ''}`,
    );
  if (state.buildResult?.timedOut) lines.push('- The build was stopped at its time limit.');
  if (state.testResult?.timedOut) lines.push('- The tests were stopped at their time limit.');
  return lines;
}

export function renderHandoff(state: CodingState, iterations: readonly IterationRecord[], reason: string): string {
  const u = state.usage;
  const attempts = attemptsOf(state);
  const files = [
    ...new Set([...iterations.flatMap((r) => r.files), ...attempts.filter((a) => a.outcome === 'applied').flatMap((a) => a.files)]),
  ];
  const error = typeof state.metadata.error === 'string' ? state.metadata.error : null;
  return [
    `# Ironbees hand-off — run ${state.stateId}`,
    '',
    `**State:** ${state.currentNode} · **Iterations:** ${state.iterationCount}/${state.maxIterations} · **Updated:** ${state.timestamp}`,
    '',
    reason,
    '',
    ...section('What was asked', [state.userRequest]),
    ...section('Specification', state.spec ? [state.spec] : []),
    ...section('Plan', planLines(state)),
    ...phaseSections(state),
    ...section('What was tried', triedLines(iterations, attempts)),
    ...section('Rewound', rewindLines(state)),
    ...section('What still fails', failingLines(state)),
    ...section(
      'Failing tests not excused',
      typeof state.metadata.ignoredKnownFailures === 'string' ? [state.metadata.ignoredKnownFailures] : [],
    ),
    ...section('Error', error ? [error] : []),
    ...section(
      'Files changed by the run',
      files.map((f) => `- \`${f}\``),
    ),
    ...section('Code review', reviewHandoffLines(state.review ?? null)),
    ...section('Diffs tried', diffLines(attempts)),
    ...section('Cost', [
      `${u.inputTokens} input tokens, ${u.outputTokens} output tokens, ${u.cacheReadTokens} cache reads, ${u.cacheWriteTokens} cache writes — ${u.costUnknown ? 'cost unknown (a model without a known price was used)' : `$${u.costUsd.toFixed(4)}`}`,
    ]),
    ...section('Next steps', nextSteps(state)),
  ].join('\n');
}

/** Each rewind to a checkpoint and the attempts it set aside (rewind.ts): kept in the run's history. */
function rewindLines(state: CodingState): string[] {
  const rewinds = Array.isArray(state.metadata.rewinds) ? (state.metadata.rewinds as RewindRecord[]) : [];
  return rewinds.flatMap((r) => [
    `- ${r.at}: back to checkpoint ${r.checkpoint} (${r.label}) from ${r.fromNode}, iteration ${r.fromIteration}`,
    ...r.setAside.map((i) => `  - set aside: iteration ${i.iteration} — ${i.outcome}${i.summary ? `: ${i.summary}` : ''}`),
  ]);
}

/** A run that ended (succeeded, failed, stopped) cannot be resumed: its hand-off does not suggest it. */
function nextSteps(state: CodingState): string[] {
  const undo = `- Undo every change of this run: \`ironbees revert ${state.stateId}\``;
  if (!TERMINAL_NODES.includes(state.currentNode)) return [`- Continue with guidance: \`ironbees resume ${state.stateId}\``, undo];
  if (state.currentNode === 'SUCCESS') return [undo];
  return [undo, '- The run has ended and cannot be resumed; to try again, start a new run (`ironbees run "<request>"`).'];
}

/** The iterations the run recorded so far. */
export function iterationsOf(state: CodingState): IterationRecord[] {
  return (state.metadata.iterations as IterationRecord[] | undefined) ?? [];
}

/**
 * The hand-off of a run that stopped without ending or escalating (the window closed or reloaded
 * mid-run): nothing wrote one, yet whoever resumes or reverts it wants the same picture.
 */
export function renderInterruptedHandoff(state: CodingState): string {
  const where = nodeSpec(state.currentNode).step;
  return renderHandoff(
    state,
    iterationsOf(state),
    `The run was interrupted at ${where}: the window closed before it finished. Resume it to go on from there, or revert it.`,
  );
}
