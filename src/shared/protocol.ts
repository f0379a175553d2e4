// Every message between the extension and the Ironbees side panel, typed once and imported by
// both sides. Messages from the webview are input, not trusted code: the extension validates each
// one against `webviewMessageSchema` on arrival. Nothing is posted to the webview before it sends
// `ready`. Only types and zod schemas live here (the webview imports types only).

import { z } from 'zod';
import type { CodingState } from '../core/model';
import type { RunSummary } from '../core/workflow/types';

const runId = z.string().min(1).max(200);
const relPath = z.string().min(1).max(4000);

const planStep = z.object({
  number: z.number().int().positive(),
  description: z.string(),
  actionType: z.enum(['CREATE', 'MODIFY', 'DELETE', 'REFACTOR']),
  filePath: z.string(),
  rationale: z.string(),
});
const executionPlan = z.object({
  summary: z.string(),
  steps: z.array(planStep).min(1),
  affectedFiles: z.array(z.string()),
  complexity: z.enum(['LOW', 'MEDIUM', 'HIGH']),
  knownFailures: z.array(z.string()).optional(),
});

/** webview → extension */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('startRun'), request: z.string().trim().min(1).max(20_000) }),
  z.object({ type: z.literal('approvePlan'), runId, editedPlan: executionPlan.optional() }),
  z.object({ type: z.literal('rejectPlan'), runId, feedback: z.string().trim().min(1).max(20_000) }),
  z.object({ type: z.literal('openDiff'), runId, filePath: relPath }),
  z.object({ type: z.literal('setFileDecision'), runId, filePath: relPath, accepted: z.boolean(), reason: z.string().max(4000).optional() }),
  z.object({ type: z.literal('submitReview'), runId }),
  z.object({ type: z.literal('rejectDiffs'), runId, feedback: z.string().trim().min(1).max(20_000) }),
  z.object({
    type: z.literal('continueRun'),
    runId,
    guidance: z.string().max(20_000),
    additionalIterations: z.number().int().min(1).max(50),
  }),
  z.object({ type: z.literal('stopRun'), runId }),
  z.object({ type: z.literal('cancelRun'), runId }),
  z.object({ type: z.literal('resumeRun'), runId }),
  z.object({ type: z.literal('revertRun'), runId }),
  z.object({ type: z.literal('openFile'), filePath: relPath, line: z.number().int().min(0), column: z.number().int().min(0) }),
  z.object({ type: z.literal('refreshHistory') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** How the person has judged one proposed file so far. */
export type FileReviewStatus = 'pending' | 'accepted' | 'rejected' | 'partial';

export interface FileReview {
  filePath: string;
  type: 'CREATE' | 'MODIFY' | 'DELETE';
  status: FileReviewStatus;
  hunkCount: number;
  rejectedHunks: number[];
  added: number;
  removed: number;
}

/** extension → webview */
export type ExtensionMessage =
  | {
      type: 'state';
      /** The run shown in the panel (the live one, or the last one), null before any run. */
      run: CodingState | null;
      /** True while a step is working (not waiting for the person, not finished). */
      busy: boolean;
      /** The status bar's text, e.g. `Ironbees 2/5 · Validating`. */
      statusText: string;
    }
  | { type: 'review'; runId: string; files: FileReview[] }
  | { type: 'history'; runs: RunSummary[] }
  | { type: 'settings'; maxIterations: number; model: string; hasApiKey: boolean }
  | { type: 'error'; message: string }
  | { type: 'notice'; message: string };

export type ExtensionMessageType = ExtensionMessage['type'];
export type WebviewMessageType = WebviewMessage['type'];
