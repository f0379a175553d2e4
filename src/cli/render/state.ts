// Progress on stderr as a run moves: one line per step (`[2/5] VALIDATE building and testing…`),
// then what the step found (build errors, test summary, cost). Pure: given the previous and the
// new snapshot it returns the lines, so what a person sees is unit-tested.

import type { Colors } from 'picocolors/types';
import type { BuildResult, CodingState, TestResult, Usage } from '../../core/model';
import { failuresIn } from '../../core/model';
import { renderPlan } from './plan';
import { visibleDeep } from '../../core/platform/text';
import { renderEditSummary } from './diff';
import { groupDigits } from './numbers';
import { describePhaseChanges, phaseEscalation } from './phases';
import { reviewLines } from './review';

const MAX_LISTED = 10;

export function formatUsage(usage: Usage): string {
  const n = groupDigits;
  return `${n(usage.inputTokens)} in / ${n(usage.outputTokens)} out tokens · ${usage.costUnknown ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function renderBuild(build: BuildResult, colors: Colors): string[] {
  const head = build.success
    ? `build ${colors.green('ok')} (${seconds(build.durationMs)})`
    : `build ${colors.red(`failed: ${build.errors.length} error${build.errors.length === 1 ? '' : 's'}`)} (${seconds(build.durationMs)})`;
  const lines = [`  ${head}${build.timedOut ? colors.red(' — stopped at its time limit') : ''}`];
  for (const e of build.errors.slice(0, MAX_LISTED)) {
    const where = e.filePath ? `${e.filePath}(${e.line},${e.column})` : '(no file)';
    lines.push(`    ${where}: ${colors.red(e.code)} ${e.message}`);
  }
  if (build.errors.length > MAX_LISTED) lines.push(`    … and ${build.errors.length - MAX_LISTED} more`);
  if (!build.success && build.errors.length === 0 && build.outputTail) {
    lines.push(
      ...build.outputTail
        .trim()
        .split('\n')
        .slice(-MAX_LISTED)
        .map((l) => colors.dim(`    ${l}`)),
    );
  }
  return lines;
}

export function renderTests(test: TestResult, colors: Colors): string[] {
  const verdict = test.success ? colors.green('passed') : colors.red('failing');
  const counts = `${test.passed}/${test.total} passed, ${test.failed} failed, ${test.skipped} skipped`;
  const lines = [
    `  tests ${verdict}: ${counts} (${seconds(test.durationMs)})${test.timedOut ? colors.red(' — stopped at its time limit') : ''}`,
  ];
  if (test.onlyLastFailures)
    lines.push(
      colors.dim('    only the tests that failed last time were run, and they still fail: the other tests were not run this time'),
    );
  for (const f of test.failures.slice(0, MAX_LISTED)) {
    const firstLine = f.message.split('\n')[0].trim();
    const already = f.preExisting ? colors.dim(' (already failing before the run)') : '';
    lines.push(`    ${colors.red('✗')} ${f.testName}${already}${firstLine ? ` — ${firstLine}` : ''}`);
  }
  const listed = Math.min(MAX_LISTED, test.failures.length);
  if (failuresIn(test) > listed)
    lines.push(`    … and ${failuresIn(test) - listed} more${test.resultsFile ? ` (all in ${test.resultsFile})` : ''}`);
  for (const skipped of test.skippedFrameworks ?? []) lines.push(colors.dim(`    not tested: ${skipped}`));
  return lines;
}

function validationLines(state: CodingState, colors: Colors): string[] {
  const lines: string[] = [];
  if (state.buildResult) lines.push(...renderBuild(state.buildResult, colors));
  if (state.testResult) lines.push(...renderTests(state.testResult, colors));
  else if (state.buildResult?.success) lines.push('  tests: none were run');
  return lines;
}

function handoffPath(state: CodingState): string | null {
  return typeof state.metadata.handoffPath === 'string' ? state.metadata.handoffPath : null;
}

/** Whole proposals rejected in a row at the end of the current iteration (a rejection uses no iteration). */
function rejectionsInARow(state: CodingState): number {
  const attempts = (state.metadata.attempts as Array<{ iteration?: number; outcome?: string }> | undefined) ?? [];
  let count = 0;
  for (let i = attempts.length - 1; i >= 0 && attempts[i].outcome === 'rejected' && attempts[i].iteration === state.iterationCount; i--)
    count++;
  return count;
}

/** What a person needs at an escalation: why, what still fails, what it cost, where the hand-off is. */
export function renderEscalation(state: CodingState, colors: Colors): string {
  const path = handoffPath(state);
  const rejected = rejectionsInARow(state);
  const headline = rejected
    ? `Escalation: you rejected ${rejected} proposals in a row in iteration ${state.iterationCount}; give the coder guidance, or stop.`
    : (phaseEscalation(state) ?? `Escalation: validation still fails after ${state.iterationCount} of ${state.maxIterations} iterations.`);
  return [
    colors.bold(colors.yellow(headline)),
    ...validationLines(state, colors),
    `  cost so far: ${formatUsage(state.usage)}`,
    path ? `  hand-off: ${path}` : '  hand-off: (not written)',
  ].join('\n');
}

function stepLine(state: CodingState, colors: Colors, text: string): string {
  return `${colors.dim(`[${state.iterationCount}/${state.maxIterations}]`)} ${colors.bold(state.currentNode)} ${text}`;
}

export const PLAN_UNCHANGED = 'The planner returned the same plan (unchanged after your feedback).';

function samePlan(a: CodingState | null, b: CodingState): boolean {
  return JSON.stringify(a?.plan ?? null) === JSON.stringify(b.plan);
}

/** The lines to print when the run moves from `previous` (null at the start) to `next`. */
export function describeTransition(previous: CodingState | null, raw: CodingState, colors: Colors): string[] {
  // Model and test output shown as written: its control characters as text. The edits' contents are
  // not shown here (their summaries are, each made visible by renderEditSummary).
  const next: CodingState = { ...visibleDeep({ ...raw, codeDiffs: [] }), codeDiffs: raw.codeDiffs };
  const lines: string[] = [];
  if (next.baseline && !previous?.baseline) {
    lines.push('Baseline (before any edit):');
    lines.push(...renderBuild(next.baseline.build, colors));
    if (next.baseline.test) lines.push(...renderTests(next.baseline.test, colors));
  }
  if (next.plan && !samePlan(previous, next)) lines.push(renderPlan(next.plan, colors));
  lines.push(...describePhaseChanges(previous, next, colors));
  lines.push(...reviewLines(previous, next, colors));
  // The same step again (its phases shown as they start and end): only what changed in them.
  if (previous?.currentNode === next.currentNode && previous.iterationCount === next.iterationCount) return lines;

  switch (next.currentNode) {
    case 'INIT':
      lines.push(stepLine(next, colors, 'capturing the baseline (build and tests before any edit)…'));
      break;
    case 'PLAN':
      lines.push(
        stepLine(
          next,
          colors,
          previous?.currentNode === 'WAIT_PLAN_APPROVAL' ? 're-planning with your feedback…' : 'the planner is reading the workspace…',
        ),
      );
      break;
    case 'WAIT_PLAN_APPROVAL':
      lines.push(stepLine(next, colors, 'the plan waits for approval'));
      if (next.metadata.planUnchangedAfterFeedback === true) lines.push(colors.yellow(PLAN_UNCHANGED));
      break;
    case 'CODE':
      lines.push(stepLine(next, colors, 'the coder is editing…'));
      break;
    case 'WAIT_DIFF_APPROVAL':
      lines.push(
        stepLine(next, colors, `${next.codeDiffs.length} file${next.codeDiffs.length === 1 ? '' : 's'} changed; waiting for approval`),
      );
      lines.push(...next.codeDiffs.map((edit) => `  ${renderEditSummary(edit, colors)}`));
      break;
    case 'VALIDATE':
      lines.push(stepLine(next, colors, 'building and testing…'));
      break;
    case 'DECIDE':
      lines.push(stepLine(next, colors, 'validation finished'));
      lines.push(...validationLines(next, colors));
      lines.push(colors.dim(`  cost so far: ${formatUsage(next.usage)}`));
      break;
    case 'REVIEW':
      lines.push(stepLine(next, colors, 'the reviewer is reading the change…'));
      break;
    case 'ESCALATE':
      lines.push(stepLine(next, colors, 'no iterations left; writing the hand-off…'));
      break;
    case 'WAIT_HUMAN':
      lines.push(stepLine(next, colors, 'needs a person'));
      lines.push(renderEscalation(next, colors));
      break;
    case 'SUCCESS':
      lines.push(stepLine(next, colors, colors.green(`done: the build is clean and the tests pass (${formatUsage(next.usage)})`)));
      break;
    case 'FAILED': {
      const error = typeof next.metadata.error === 'string' ? next.metadata.error : 'unknown error';
      lines.push(stepLine(next, colors, colors.red(`the run failed: ${error}`)));
      lines.push(colors.dim(`  cost: ${formatUsage(next.usage)}`));
      break;
    }
    case 'CANCELLED':
      lines.push(stepLine(next, colors, colors.yellow(`stopped (${formatUsage(next.usage)})`)));
      break;
  }
  const path = handoffPath(next);
  if (path && ['SUCCESS', 'FAILED', 'CANCELLED'].includes(next.currentNode)) lines.push(colors.dim(`  hand-off: ${path}`));
  return lines;
}
