// What the coder reads after a failed validation: the structured lists, and a compact text that stays
// under ~4k tokens however many errors a build throws. New problems come first and in full; the rest
// are counted by error code so the model still sees the shape of what is wrong.

import type { CompilationError, ErrorContext, TestFailure } from '../model';
import { shortenStack } from './stack-frames';
import type { ValidationOutcome } from './validator';

export const MAX_ERROR_CONTEXT_CHARS = 16_000;
const BUILD_BUDGET = 7_000;
const TEST_BUDGET = 6_500;
const MAX_MESSAGE_CHARS = 600;
const MAX_STACK_LINES_SHOWN = 6;
const MAX_TAIL_CHARS = 1_500;
const MAX_PRE_EXISTING_NAMES = 20;

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max)}…`;
}

/** Lines added while they fit in a budget; what does not fit is counted by the caller. */
class Section {
  readonly lines: string[] = [];
  private used = 0;

  constructor(private readonly budget: number) {}

  tryAdd(block: string): boolean {
    if (this.used + block.length + 1 > this.budget) return false;
    this.lines.push(block);
    this.used += block.length + 1;
    return true;
  }
}

function keyOf(error: CompilationError): string {
  return [error.filePath, error.line, error.column, error.code, error.message].join('\u0000');
}

function location(error: CompilationError): string {
  if (error.line <= 0) return '';
  return error.column > 0 ? `${error.line}:${error.column}` : `${error.line}`;
}

function countByCode(errors: readonly CompilationError[]): string {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error.code || 'no code', (counts.get(error.code || 'no code') ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code} ×${count}`)
    .join(', ');
}

function buildSection(outcome: ValidationOutcome): string[] {
  const { build } = outcome;
  if (build.success) return [];
  // Compared by value: an outcome read back from state.json has no shared objects.
  const newKeys = new Set(outcome.newBuildErrors.map(keyOf));
  const ordered = [...outcome.newBuildErrors, ...build.errors.filter((error) => !newKeys.has(keyOf(error)))];
  const preExistingCount = ordered.length - outcome.newBuildErrors.length;
  const header = build.timedOut
    ? `## Build: timed out`
    : `## Build: failed with ${ordered.length} error(s), ${outcome.newBuildErrors.length} new${preExistingCount ? `, ${preExistingCount} already there before any edit` : ''}`;
  const section = new Section(BUILD_BUDGET);
  section.tryAdd(header);
  // Grouped by file, in the order files first appear: the model fixes a file at a time.
  const byFile = new Map<string, CompilationError[]>();
  for (const error of ordered) {
    const file = error.filePath ?? '(no file)';
    byFile.set(file, [...(byFile.get(file) ?? []), error]);
  }
  const shown = new Set<CompilationError>();
  outer: for (const [file, errors] of byFile) {
    if (!section.tryAdd(`### ${file}`)) break;
    for (const error of errors) {
      const tag = newKeys.has(keyOf(error)) ? '' : ' [already failing before any edit]';
      const where = location(error);
      const line = `- ${where ? `line ${where} ` : ''}${error.code ? `${error.code}: ` : ''}${clip(error.message, MAX_MESSAGE_CHARS)}${tag}`;
      if (!section.tryAdd(line)) break outer;
      shown.add(error);
    }
  }
  const rest = ordered.filter((error) => !shown.has(error));
  if (rest.length > 0) {
    const files = new Set(rest.map((error) => error.filePath ?? '(no file)')).size;
    section.lines.push(`… and ${rest.length} more error(s) in ${files} file(s): ${clip(countByCode(rest), 400)}`);
  }
  const onlyUnparsed = ordered.every((error) => error.filePath === null && ['BUILD_FAILED', 'TIMEOUT'].includes(error.code));
  if (onlyUnparsed && build.outputTail)
    section.tryAdd(['Last build output:', '```', build.outputTail.slice(-MAX_TAIL_CHARS).trim(), '```'].join('\n'));
  return section.lines;
}

function renderFailure(failure: TestFailure, tailForRunFailures: string | undefined, tolerated: ReadonlySet<string>): string {
  const tag = !failure.preExisting
    ? ''
    : tolerated.has(failure.testName)
      ? ' [already failing before any edit; the plan leaves it alone]'
      : ' [already failing before any edit]';
  const lines = [`### ${failure.testName}${tag}`, clip(failure.message, MAX_MESSAGE_CHARS)];
  const stack = failure.stackTrace === '' ? [] : shortenStack(failure.stackTrace, failure.testName, MAX_STACK_LINES_SHOWN).split('\n');
  if (stack.length > 0) lines.push(...stack);
  if (failure.testName.startsWith('[test run]') && tailForRunFailures)
    lines.push('Last test output:', clip(tailForRunFailures.slice(-MAX_TAIL_CHARS), MAX_TAIL_CHARS));
  return lines.join('\n');
}

function testSection(outcome: ValidationOutcome): string[] {
  const { test } = outcome;
  if (!test || test.failed === 0) return [];
  const tolerated = new Set(outcome.toleratedFailures);
  // New failures first, then the pre-existing ones the request may be about, then those it is not.
  const rank = (failure: TestFailure): number => (!failure.preExisting ? 0 : tolerated.has(failure.testName) ? 2 : 1);
  const failures = [...test.failures].sort((a, b) => rank(a) - rank(b));
  const newCount = failures.filter((failure) => !failure.preExisting).length;
  const section = new Section(TEST_BUDGET);
  section.tryAdd(
    `## Tests: ${test.failed} of ${test.total} failed (${newCount} new, ${test.failed - newCount} already failing before any edit)${test.timedOut ? '; the run timed out' : ''}`,
  );
  let shown = 0;
  for (const failure of failures) {
    if (!section.tryAdd(renderFailure(failure, test.outputTail, tolerated))) break;
    shown += 1;
  }
  const rest = failures.slice(shown);
  if (rest.length > 0) {
    const names = rest
      .slice(0, 30)
      .map((failure) => failure.testName)
      .join(', ');
    section.lines.push(`… and ${rest.length} more failing test(s): ${clip(names, 1500)}${rest.length > 30 ? ', …' : ''}`);
  }
  return section.lines;
}

function summaryLine(outcome: ValidationOutcome, iteration: number): string {
  if (outcome.passed) return `Validation passed (iteration ${iteration}).`;
  const parts: string[] = [];
  if (!outcome.build.success) parts.push(outcome.build.timedOut ? 'the build timed out' : 'the build failed');
  else if (outcome.test) parts.push(`${outcome.test.failed} test(s) fail`);
  if (outcome.fixedFailures.length > 0) parts.push(`${outcome.fixedFailures.length} test(s) that failed before now pass`);
  return `Validation failed (iteration ${iteration}): ${parts.join('; ')}.`;
}

/** The structured error context and its compact text (≤ MAX_ERROR_CONTEXT_CHARS). */
export function buildErrorContext(
  outcome: ValidationOutcome,
  iteration: number,
  extras: { rejections?: string; guidance?: string } = {},
): ErrorContext {
  // The person's words first: they are short, and the cap must never cut them.
  const blocks: string[] = [summaryLine(outcome, iteration)];
  if (extras.guidance) blocks.push('## Guidance from the person', clip(extras.guidance, 1_500));
  if (extras.rejections) blocks.push('## Changes the person rejected', clip(extras.rejections, 1_500));
  blocks.push(...buildSection(outcome), ...testSection(outcome));
  if (outcome.preExistingFailures.length > 0) {
    const names = outcome.preExistingFailures.slice(0, MAX_PRE_EXISTING_NAMES).join(', ');
    const more =
      outcome.preExistingFailures.length > MAX_PRE_EXISTING_NAMES
        ? ` and ${outcome.preExistingFailures.length - MAX_PRE_EXISTING_NAMES} more`
        : '';
    blocks.push(`Already failing before any edit (not caused by your change; fix them only if the request asks): ${names}${more}.`);
  }
  let text = blocks.join('\n');
  if (text.length > MAX_ERROR_CONTEXT_CHARS) text = `${text.slice(0, MAX_ERROR_CONTEXT_CHARS - 20)}\n… (truncated)`;
  const context: ErrorContext = {
    iteration,
    text,
    newBuildErrors: outcome.newBuildErrors,
    newTestFailures: outcome.newTestFailures,
    preExistingFailures: outcome.preExistingFailures,
  };
  if (extras.rejections !== undefined) context.rejections = extras.rejections;
  if (extras.guidance !== undefined) context.guidance = extras.guidance;
  return context;
}
