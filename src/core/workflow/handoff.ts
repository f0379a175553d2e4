// HANDOFF.md: what a person needs to take over a run — what was asked, the plan, what was tried
// each iteration, what still fails, and what it cost. Written at escalation and at the end.

import type { CodingState, IterationRecord } from '../model';

const MAX_LISTED = 20;

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

function iterationLines(iterations: readonly IterationRecord[]): string[] {
  return iterations.map((r) => {
    const files = r.files.length ? r.files.map((f) => `\`${f}\``).join(', ') : 'no files';
    const detail = r.buildOk ? `${r.newFailures} new test failure(s)` : `${r.newErrors} new build error(s)`;
    return `- Iteration ${r.iteration}: ${r.outcome} — ${detail}; changed ${files}.${r.summary ? ` Coder: ${r.summary}` : ''}`;
  });
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
  for (const f of failures.slice(0, MAX_LISTED)) {
    const firstLine = f.message.split('\n')[0];
    lines.push(`- Test: \`${f.testName}\`${f.preExisting ? ' (already failing before the run)' : ''} — ${firstLine}`);
  }
  if (failures.length > MAX_LISTED) lines.push(`- … and ${failures.length - MAX_LISTED} more failing tests`);
  if (state.buildResult?.timedOut) lines.push('- The build was stopped at its time limit.');
  if (state.testResult?.timedOut) lines.push('- The tests were stopped at their time limit.');
  return lines;
}

export function renderHandoff(state: CodingState, iterations: readonly IterationRecord[], reason: string): string {
  const u = state.usage;
  const files = [...new Set(iterations.flatMap((r) => r.files))];
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
    ...section('What was tried', iterationLines(iterations)),
    ...section('What still fails', failingLines(state)),
    ...section('Error', error ? [error] : []),
    ...section('Files changed by the run', files.map((f) => `- \`${f}\``)),
    ...section('Cost', [
      `${u.inputTokens} input tokens, ${u.outputTokens} output tokens, ${u.cacheReadTokens} cache reads, ${u.cacheWriteTokens} cache writes — $${u.costUsd.toFixed(4)}`,
    ]),
    ...section('Next steps', [
      `- Continue with guidance: \`ironbees resume ${state.stateId}\``,
      `- Undo every change of this run: \`ironbees revert ${state.stateId}\``,
    ]),
  ].join('\n');
}
