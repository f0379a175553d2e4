// The one place the fake model servers decide what a reviewer turn gets. A run reviews its change by
// default (`--review required`), so every scripted run would otherwise need a reviewer answer it never
// asked for: a request that offers `submit_review` is answered from the server's review queue
// (`enqueueReview`), else with a passing review, and is recorded apart (`reviewRequests`) so the
// counts of the other requests stay what the tests scripted.

export const REVIEW_TOOL = 'submit_review';

/** A review that passes at any threshold: score 10, no issue. */
export const PASSING_REVIEW = { score: 10, criticalIssues: [], suggestions: [] } as const;

/** Whether a request is the reviewer's: it offers the reviewer's terminal tool. */
export function isReviewerRequest(toolNames: readonly string[]): boolean {
  return toolNames.includes(REVIEW_TOOL);
}
