// The request bodies of the served API, checked before anything is trusted: sizes bounded, shapes exact.

import { z } from 'zod';
import type { ApprovalDecision } from '../core/model';

const text = z.string().max(20_000);

export const startBody = z.object({
  request: z.string().trim().min(1).max(20_000),
  workspace: z.string().min(1).max(4000),
  options: z
    .object({
      maxIterations: z.number().int().min(1).max(50).default(5),
      planApproval: z.enum(['always', 'never']).default('always'),
      diffApproval: z.enum(['always', 'first', 'never']).default('always'),
    })
    .strict()
    .default({ maxIterations: 5, planApproval: 'always', diffApproval: 'always' }),
});

export const planBody = z.object({ approved: z.boolean(), feedback: text.optional() }).strict();

const fileDecision = z
  .object({
    filePath: z.string().min(1).max(4000),
    accepted: z.boolean(),
    rejectedHunks: z.array(z.number().int().min(0).max(100_000)).max(10_000).optional(),
    reason: z.string().max(4000).optional(),
    /** A reason per rejected hunk, by hunk index ("0", "1", … as JSON keys); `reason` covers the rest. */
    hunkReasons: z
      .record(z.string().regex(/^\d{1,6}$/), z.string().max(4000))
      .refine((reasons) => Object.keys(reasons).length <= 10_000, 'at most 10000 hunk reasons')
      .optional(),
  })
  .strict();

export const diffsBody = z
  .object({ approved: z.boolean(), feedback: text.optional(), files: z.array(fileDecision).max(5000).optional() })
  .strict();

export const escalationBody = z
  .object({
    action: z.enum(['continue', 'stop']),
    guidance: text.optional(),
    additionalIterations: z.number().int().min(1).max(50).optional(),
  })
  .strict();

const NO_REASON = 'Rejected without a reason.';

export function planDecision(body: z.output<typeof planBody>): ApprovalDecision {
  return body.approved ? { type: 'APPROVE' } : { type: 'REJECT', feedback: body.feedback?.trim() || NO_REASON };
}

export function diffsDecision(body: z.output<typeof diffsBody>): ApprovalDecision {
  if (!body.approved) return { type: 'REJECT', feedback: body.feedback?.trim() || NO_REASON };
  return body.files ? { type: 'APPROVE', files: body.files } : { type: 'APPROVE' };
}

export function escalationDecision(body: z.output<typeof escalationBody>): ApprovalDecision {
  if (body.action === 'stop') return { type: 'STOP' };
  return { type: 'CONTINUE', guidance: body.guidance?.trim() ?? '', additionalIterations: body.additionalIterations ?? 3 };
}
