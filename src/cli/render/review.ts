// The reviewer's verdict on stderr, once per new review: the score, whether it passed, and every
// issue as `[severity] file:line description` (a terminal makes file:line clickable).

import type { Colors } from 'picocolors/types';
import type { CodingState, ReviewResult } from '../../core/model';

/** The lines for a review the previous state did not have; none when nothing new was reviewed. */
export function reviewLines(previous: CodingState | null, next: CodingState, colors: Colors): string[] {
  const review = next.review;
  if (!review || JSON.stringify(previous?.review ?? null) === JSON.stringify(review)) return [];
  return renderReview(review, colors);
}

export function renderReview(review: ReviewResult, colors: Colors): string[] {
  const verdict = review.pass ? colors.green('passed') : colors.red('failed');
  const lines = [`Code review: score ${review.score}/10, ${verdict}`];
  for (const issue of review.criticalIssues) {
    const where = issue.line !== undefined ? `${issue.file}:${issue.line}` : issue.file;
    const severity = issue.severity === 'minor' ? colors.dim(issue.severity) : colors.yellow(issue.severity);
    lines.push(`  [${severity}] ${where} ${issue.description}`);
    if (issue.suggestedFix) lines.push(colors.dim(`      fix: ${issue.suggestedFix}`));
  }
  for (const suggestion of review.suggestions) lines.push(colors.dim(`  suggestion: ${suggestion}`));
  return lines;
}
