// The REVIEW step (contracts.md, Reviewer): once DECIDE finds the tests passing, the reviewer agent
// reads the run's whole change. `--review required`: a failing review sends its critical and major
// issues to the coder as the next iteration (the iteration budget applies); `advisory`: the review is
// shown and never blocks; `off`: the step is skipped (the statechart goes straight to SUCCESS).

import * as path from 'node:path';
import type { ErrorContext, FileEdit, ReviewIssue, ReviewMode, ReviewResult, TestResult } from '../model';
import { DEFAULT_REVIEW_THRESHOLD, EMPTY_USAGE, addUsage } from '../model';
import { errorMessage } from '../errors';
import type { Host } from '../host';
import type { AgentRuntime } from '../agents/types';
import type { AgentRegistry } from '../agents/unit';
import type { ReviewerInput, ReviewerOutput } from '../agents/reviewer/runner';
import { REVIEWER_AGENT } from '../agents/reviewer/runner';
import { makeFileEdit } from '../workspace/diff';
import { decodeBytes } from '../workspace/text-codec';
import type { RunContext, ReviewInput, ReviewOutput } from './run-context';
import type { RunStore } from './store';

/** The review setting of a run; a run without one (persisted before reviews) is not reviewed. */
export function reviewSettings(workflow: RunContext['workflow']): { mode: ReviewMode; threshold: number } {
  return { mode: workflow.review?.mode ?? 'off', threshold: workflow.review?.threshold ?? DEFAULT_REVIEW_THRESHOLD };
}

/** DECIDE's pass goes to REVIEW unless reviews are off. */
export function reviewWanted(context: RunContext): boolean {
  return reviewSettings(context.workflow).mode !== 'off';
}

export function reviewInputOf(context: RunContext): ReviewInput {
  return {
    stateId: context.stateId,
    workflow: context.workflow,
    request: context.userRequest,
    spec: context.spec ?? '',
    plan: context.plan ?? { summary: '', steps: [], affectedFiles: [], complexity: 'LOW' },
    baselineTests: context.baseline?.test ?? null,
    tests: context.testResult,
    iteration: context.iterationCount,
    maxIterations: context.maxIterations,
  };
}

/** What the machine keeps of a review: the verdict, the issues for the coder, the usage. */
export function withReview(context: RunContext, output: ReviewOutput): Partial<RunContext> {
  const failed = output.verdict !== 'pass';
  return {
    review: output.review,
    usage: addUsage(context.usage, output.usage),
    ...(failed ? { errorContext: output.errorContext, passed: false } : {}),
    iterations: failed
      ? context.iterations.map((record) => (record.iteration === context.iterationCount ? { ...record, outcome: 'review failed' } : record))
      : context.iterations,
  };
}

/** REVIEW's onDone transitions: pass → SUCCESS; retry → CODE, as the next iteration; else ESCALATE. */
export function reviewOutcomes() {
  type DoneEvent = { event: { output: ReviewOutput } };
  const assignReview = { type: 'assignReview', params: ({ event }: DoneEvent) => event.output } as const;
  const verdictIs = (expected: ReviewOutput['verdict']) =>
    ({ type: 'verdictIs', params: ({ event }: DoneEvent) => ({ verdict: event.output.verdict, expected }) }) as const;
  return [
    // A passing review ends the run: the last phase (the one running) is complete.
    { guard: verdictIs('pass'), target: 'SUCCESS', actions: [assignReview, 'completePhase'] },
    { guard: verdictIs('retry'), target: 'CODE', actions: [assignReview, 'nextIteration'] },
    { target: 'ESCALATE', actions: assignReview },
  ] as const;
}

export interface ReviewStepDeps {
  host: Host;
  store: RunStore;
  units: AgentRegistry;
  warn: (message: string) => void;
}

/** Runs the reviewer on the run's cumulative change and decides where the run goes next. */
export async function runReviewStep(deps: ReviewStepDeps, input: ReviewInput, runtime: AgentRuntime): Promise<ReviewOutput> {
  const { mode, threshold } = reviewSettings(input.workflow);
  const change = await cumulativeChange(deps.host, deps.store, input.stateId);
  // Nothing changed, nothing to review (a run may succeed with no edit when the tests already pass).
  if (change.length === 0) return { verdict: 'pass', review: null, errorContext: null, usage: EMPTY_USAGE };
  const reviewerInput: ReviewerInput = {
    request: input.request,
    spec: input.spec,
    plan: input.plan,
    diff: change.map((edit) => edit.diffText).join('\n'),
    changedFiles: change.map((edit) => edit.filePath),
    tests: { before: testLine(input.baselineTests), after: testLine(input.tests) },
    iteration: input.iteration,
    threshold,
  };
  let output: ReviewerOutput;
  try {
    output = await deps.units.require<ReviewerInput, ReviewerOutput>(REVIEWER_AGENT).run(runtime, reviewerInput);
  } catch (error) {
    // An advisory review never blocks: a reviewer that fails is reported, and the run succeeds.
    if (mode !== 'advisory' || runtime.signal?.aborted) throw error;
    deps.warn(`The advisory review could not be made: ${errorMessage(error)}`);
    return { verdict: 'pass', review: null, errorContext: null, usage: EMPTY_USAGE };
  }
  const { usage, ...review } = output;
  return { ...reviewVerdict(review, mode, input), usage };
}

/** Where a review sends the run: only a failing required review holds it back. */
export function reviewVerdict(
  review: ReviewResult,
  mode: ReviewMode,
  at: { iteration: number; maxIterations: number },
): Omit<ReviewOutput, 'usage'> {
  if (review.pass || mode !== 'required') return { verdict: 'pass', review, errorContext: null };
  return {
    verdict: at.iteration < at.maxIterations ? 'retry' : 'escalate',
    review,
    errorContext: reviewErrorContext(review, at.iteration),
  };
}

/** The issues the coder must fix: the critical and major ones (every issue when the review names none of those). */
export function issuesForCoder(review: ReviewResult): ReviewIssue[] {
  const serious = review.criticalIssues.filter((issue) => issue.severity !== 'minor');
  return serious.length > 0 ? serious : review.criticalIssues;
}

export function reviewErrorContext(review: ReviewResult, iteration: number): ErrorContext {
  const issues = issuesForCoder(review);
  const lines = [
    `The build and the tests pass, but the code review failed (score ${review.score}/10). Fix these issues:`,
    ...issues.map((issue) => `- ${describeIssue(issue)}`),
  ];
  if (issues.length === 0) lines.push('- (the reviewer named no issue; see its suggestions)');
  if (review.suggestions.length > 0) lines.push('', 'Suggestions:', ...review.suggestions.map((s) => `- ${s}`));
  return {
    iteration,
    text: lines.join('\n'),
    newBuildErrors: [],
    newTestFailures: [],
    preExistingFailures: [],
    source: 'review',
  };
}

export function describeIssue(issue: ReviewIssue): string {
  const where = issue.line !== undefined ? `${issue.file}:${issue.line}` : issue.file;
  const fix = issue.suggestedFix ? ` Fix: ${issue.suggestedFix}` : '';
  return `[${issue.severity}] ${where}: ${issue.description}${fix}`;
}

/** The hand-off's "Code review" section: the score and verdict, every issue with file:line, the suggestions. */
export function reviewHandoffLines(review: ReviewResult | null): string[] {
  if (!review) return [];
  return [
    `Score ${review.score}/10: ${review.pass ? 'passed' : 'failed'}.`,
    ...(review.criticalIssues.length ? ['', ...review.criticalIssues.map((issue) => `- ${describeIssue(issue)}`)] : []),
    ...(review.suggestions.length ? ['', 'Suggestions:', ...review.suggestions.map((s) => `- ${s}`)] : []),
  ];
}

/** One line for the tests of a validation: counts, or why there are none. */
export function testLine(test: TestResult | null): string {
  if (!test) return 'not run';
  return `${test.passed} passed, ${test.failed} failed, ${test.skipped} skipped (${test.total} in all)`;
}

/** Every file the run changed, from before the run to what the disk holds now. */
export async function cumulativeChange(host: Host, store: RunStore, runId: string): Promise<FileEdit[]> {
  const edits: FileEdit[] = [];
  for (const filePath of await store.journal.touchedFiles(runId)) {
    const before = await store.journal.originalOf(runId, filePath);
    const now = await host.fs.readFile(path.join(host.workspaceRoot, filePath));
    const original = before ? decodeBytes(filePath, before) : null;
    const next = now ? decodeBytes(filePath, now) : null;
    if (original === next) continue;
    edits.push(makeFileEdit(filePath, original, next));
  }
  return edits;
}
