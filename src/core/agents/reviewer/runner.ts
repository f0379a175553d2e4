// The reviewer: reads the run's change as a whole (the cumulative diff) against the request, the
// spec and the plan, with the tests before → after, using read-only and symbol tools, and ends with
// submit_review. It works on a throwaway overlay over the workspace, which already holds the change.
// Whether the review passes is decided here (score ≥ threshold, no critical issue), not by the model.

import type { ExecutionPlan, ReviewIssue, ReviewResult, Usage } from '../../model';
import { DEFAULT_REVIEW_THRESHOLD } from '../../model';
import { agentToolContext } from '../tool-context';
import { requireAgent } from '../agent-definition';
import { runToolLoop } from '../tool-loop';
import type { TerminalVerdict } from '../tool-loop';
import type { AgentRuntime } from '../types';
import type { AgentUnit } from '../unit';
import { renderPlan } from '../coder/runner';
import { SUBMIT_REVIEW_TOOL_NAME, submitReviewTool } from './terminal-tool';
import type { SubmitReviewInput } from './terminal-tool';

export const REVIEWER_AGENT = 'reviewer';
export const SUBMIT_REVIEW_TOOL = SUBMIT_REVIEW_TOOL_NAME;

/** The most of the diff put in the first message; the reviewer reads the rest with its tools. */
export const MAX_DIFF_CHARS = 60_000;

export interface ReviewerInput {
  request: string;
  spec: string;
  plan: ExecutionPlan;
  /** The run's cumulative unified diff: every file it changed, from before the run to now. */
  diff: string;
  /** The files the diff touches, workspace-relative. */
  changedFiles: string[];
  /** The tests before the run and after the change, each as one line ("12 passed, 1 failed …"). */
  tests: { before: string; after: string };
  iteration: number;
  threshold?: number;
}

export interface ReviewerOutput extends ReviewResult {
  usage: Usage;
}

export async function runReviewer(rt: AgentRuntime, input: ReviewerInput): Promise<ReviewerOutput> {
  const agent = requireAgent(rt.agents, REVIEWER_AGENT);
  const threshold = input.threshold ?? DEFAULT_REVIEW_THRESHOLD;
  const result = await runToolLoop({
    agent,
    runtime: rt,
    toolContext: agentToolContext(rt),
    userMessage: reviewerMessage(input),
    terminal: { name: SUBMIT_REVIEW_TOOL, accept: (raw) => acceptReview(raw, threshold) },
    templateVars: { threshold },
  });
  return { ...result.value, usage: result.usage };
}

/** The reviewer as the workflow's REVIEW step finds it (agents/builtin.ts). */
export const reviewerAgent: AgentUnit<ReviewerInput, ReviewerOutput> = {
  name: REVIEWER_AGENT,
  terminalTool: submitReviewTool,
  run: runReviewer,
};

/** Passes at a score of at least the threshold with no critical issue (contracts.md, Reviewer). */
export function reviewPasses(score: number, issues: readonly ReviewIssue[], threshold: number): boolean {
  return score >= threshold && !issues.some((issue) => issue.severity === 'critical');
}

/** Tidies the paths and decides pass; the schema has checked the shape already. */
export function acceptReview(raw: unknown, threshold: number): TerminalVerdict<ReviewResult> {
  const input = raw as SubmitReviewInput;
  const criticalIssues: ReviewIssue[] = input.criticalIssues.map((issue) => ({
    severity: issue.severity,
    file: issue.file.trim().replace(/\\/g, '/').replace(/^\.\//, ''),
    ...(issue.line !== undefined && issue.line > 0 ? { line: issue.line } : {}),
    description: issue.description.trim(),
    ...(issue.suggestedFix?.trim() ? { suggestedFix: issue.suggestedFix.trim() } : {}),
  }));
  const suggestions = input.suggestions.map((s) => s.trim()).filter((s) => s !== '');
  return {
    ok: true,
    value: { score: input.score, criticalIssues, suggestions, pass: reviewPasses(input.score, criticalIssues, threshold) },
  };
}

export function reviewerMessage(input: ReviewerInput): string {
  const diff =
    input.diff.length > MAX_DIFF_CHARS
      ? `${input.diff.slice(0, MAX_DIFF_CHARS)}\n… (the diff is cut here; read the changed files with read_file for the rest)`
      : input.diff;
  const planFiles = [...new Set([...input.plan.affectedFiles, ...input.plan.steps.map((step) => step.filePath)])];
  const outside = input.changedFiles.filter((file) => !planFiles.includes(file));
  return [
    `# Request\n\n${input.request.trim()}`,
    `# Specification\n\n${input.spec.trim()}`,
    `# Approved plan\n\n${renderPlan(input.plan)}`,
    `# Files the plan names\n\n${planFiles.map((file) => `- ${file}`).join('\n') || '(none)'}`,
    `# Files the change touches\n\n${input.changedFiles.map((file) => `- ${file}${outside.includes(file) ? ' (not in the plan)' : ''}`).join('\n') || '(none)'}`,
    `# Tests before → after\n\n- Before the change: ${input.tests.before}\n- After the change: ${input.tests.after}`,
    `# The change (the whole run's diff, iteration ${input.iteration})\n\n\`\`\`diff\n${diff.trimEnd()}\n\`\`\``,
    `Review the change with your read-only tools, then call ${SUBMIT_REVIEW_TOOL} once.`,
  ].join('\n\n');
}
