// The reviewer's terminal tool, submit_review {score, criticalIssues, suggestions} (contracts.md,
// Reviewer): its arguments are the review. Lenient only where meaning cannot change (a score sent as
// text, a severity in capitals, a list sent as a JSON string, a line sent as null).

import { z } from 'zod';
import { optionalInt, optionalString, parseJsonText } from '../../tools/workspace/lenient';
import { terminalTool } from '../unit';

export const REVIEW_SEVERITIES = ['critical', 'major', 'minor'] as const;

const lowerCased = (value: unknown): unknown => (typeof value === 'string' ? value.trim().toLowerCase() : value);

const reviewIssueSchema = z.object({
  severity: z
    .preprocess(lowerCased, z.enum(REVIEW_SEVERITIES))
    .meta({ type: 'string', enum: [...REVIEW_SEVERITIES], description: 'critical blocks the change whatever the score' }),
  file: z.string().min(1).describe('Workspace-relative path of the file the issue is in'),
  line: optionalInt('The line in the file as it is now, from 1'),
  description: z.string().min(1).describe('What is wrong and why it matters'),
  suggestedFix: optionalString('How to fix it'),
});

export const submitReviewInput = z.object({
  score: z.coerce
    .number()
    .int()
    .min(1)
    .max(10)
    .meta({ type: 'integer', minimum: 1, maximum: 10, description: '1 (reject) to 10 (merge as is)' }),
  criticalIssues: z.preprocess(
    parseJsonText,
    z.array(reviewIssueSchema).describe('Every problem found, each with its severity; empty when there is none'),
  ),
  suggestions: z.preprocess(
    (value) => (value === null || value === undefined ? [] : parseJsonText(value)),
    z.array(z.string()).meta({ type: 'array', items: { type: 'string' }, description: 'Improvements that are not problems' }),
  ),
});
export type SubmitReviewInput = z.infer<typeof submitReviewInput>;

export const SUBMIT_REVIEW_TOOL_NAME = 'submit_review';

export const submitReviewTool = terminalTool<SubmitReviewInput>(
  SUBMIT_REVIEW_TOOL_NAME,
  'Submit your review of the change: a score from 1 to 10, every issue found with its severity, file and line, and suggestions. This ends your turn; call it once.',
  submitReviewInput,
  'Review received.',
);
