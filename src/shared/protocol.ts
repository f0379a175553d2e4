// Every message between the extension and the Ironbees side panel, typed once and imported by
// both sides. Messages from the webview are input, not trusted code: the extension validates each
// one against `webviewMessageSchema` on arrival. Nothing is posted to the webview before it sends
// `ready`. Only types and zod schemas live here (the webview imports types only).

import { z } from 'zod';
import type { CodingState } from '../core/model';
import type { RunSummary, TurnEvent } from '../core/trace';

/** Every string and list from the webview is bounded: a runaway or hostile panel cannot make the extension hold megabytes. */
export const PANEL_LIMITS = {
  runId: 200,
  path: 4000,
  text: 20_000,
  reason: 4000,
  testName: 2000,
  planSteps: 1000,
  planFiles: 5000,
  knownFailures: 500,
  lineOrColumn: 10_000_000,
} as const;

const runId = z.string().min(1).max(PANEL_LIMITS.runId);
/** What a checkpoint may be called from the panel: its id, `plan`, `iteration:N`, `last-green`. */
export const CHECKPOINT_REF = /^(?:c\d{1,9}|plan|last-green|iteration:\d{1,9})$/;

/** The timeline steps that have turns to show: the agents' steps. */
export const TURN_STEPS = ['PLAN', 'CODE'] as const;
export type TurnStep = (typeof TURN_STEPS)[number];
const relPath = z.string().min(1).max(PANEL_LIMITS.path);
const text = z.string().max(PANEL_LIMITS.text);

const planStep = z.object({
  number: z.number().int().positive().max(PANEL_LIMITS.lineOrColumn),
  description: text,
  actionType: z.enum(['CREATE', 'MODIFY', 'DELETE', 'REFACTOR']),
  filePath: z.string().max(PANEL_LIMITS.path),
  rationale: text,
});
const executionPlan = z.object({
  summary: text,
  steps: z.array(planStep).min(1).max(PANEL_LIMITS.planSteps),
  affectedFiles: z.array(z.string().max(PANEL_LIMITS.path)).max(PANEL_LIMITS.planFiles),
  complexity: z.enum(['LOW', 'MEDIUM', 'HIGH']),
  knownFailures: z.array(z.string().max(PANEL_LIMITS.testName)).max(PANEL_LIMITS.knownFailures).optional(),
});

/** webview → extension */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('startRun'), request: z.string().trim().min(1).max(PANEL_LIMITS.text) }),
  z.object({ type: z.literal('approvePlan'), runId, editedPlan: executionPlan.optional() }),
  z.object({ type: z.literal('rejectPlan'), runId, feedback: z.string().trim().min(1).max(PANEL_LIMITS.text) }),
  z.object({ type: z.literal('openDiff'), runId, filePath: relPath }),
  z.object({
    type: z.literal('setFileDecision'),
    runId,
    filePath: relPath,
    accepted: z.boolean(),
    reason: z.string().max(PANEL_LIMITS.reason).optional(),
  }),
  /** One hunk (0-based, in the file's diffText order, as the core splits it) accepted or rejected. Additive. */
  z.object({
    type: z.literal('setHunkDecision'),
    runId,
    filePath: relPath,
    hunk: z.number().int().min(0).max(PANEL_LIMITS.lineOrColumn),
    accepted: z.boolean(),
    reason: z.string().max(PANEL_LIMITS.reason).optional(),
  }),
  z.object({ type: z.literal('submitReview'), runId }),
  z.object({ type: z.literal('rejectDiffs'), runId, feedback: z.string().trim().min(1).max(PANEL_LIMITS.text) }),
  z.object({
    type: z.literal('continueRun'),
    runId,
    guidance: text,
    additionalIterations: z.number().int().min(1).max(50),
  }),
  z.object({ type: z.literal('stopRun'), runId }),
  z.object({ type: z.literal('cancelRun'), runId }),
  z.object({ type: z.literal('resumeRun'), runId }),
  z.object({ type: z.literal('revertRun'), runId }),
  z.object({
    type: z.literal('openFile'),
    filePath: relPath,
    line: z.number().int().min(0).max(PANEL_LIMITS.lineOrColumn),
    column: z.number().int().min(0).max(PANEL_LIMITS.lineOrColumn),
  }),
  z.object({ type: z.literal('refreshHistory') }),
  /** The model line's "Change": the model picker. Additive. */
  z.object({ type: z.literal('chooseModel') }),
  /** A click on a timeline step: the panel wants that step's turns (answered with `stepTurns`). */
  z.object({ type: z.literal('showStepTurns'), runId, node: z.enum(TURN_STEPS) }),
  /** Opens the run's HANDOFF.md as a Markdown preview. */
  z.object({ type: z.literal('openHandoff'), runId }),
  /** "Restore here" / "Back to last green": rewind the run to a checkpoint (shown as a diff and confirmed first). Additive. */
  z.object({ type: z.literal('restoreCheckpoint'), runId, checkpoint: z.string().regex(CHECKPOINT_REF) }),
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
  /** Each hunk's verdict so far, in diffText order (the page marks its hunks with them). Additive. */
  hunkVerdicts?: Array<'pending' | 'accepted' | 'rejected'>;
  /** The reasons given for single rejected hunks, by hunk index. Additive. */
  hunkReasons?: Record<number, string>;
  added: number;
  removed: number;
}

/** The live activity under the current step (extension/activity-feed.ts builds it within these). */
export const ACTIVITY_PANEL_LIMITS = {
  entries: 200,
  text: 4000,
  agent: 100,
  turn: 10_000,
} as const;

const tokenCount = z.number().nonnegative().max(1e12);
const activityUsage = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cacheReadTokens: tokenCount,
  cacheWriteTokens: tokenCount,
  costUsd: z.number().nonnegative().max(1e9),
  costUnknown: z.literal(true).optional(),
});

/** One line of the live activity: a model turn (its words, folded once done) or a tool call with its outcome. */
export const activityEntrySchema = z.object({
  id: z.number().int().nonnegative(),
  kind: z.enum(['turn', 'tool']),
  agent: z.string().max(ACTIVITY_PANEL_LIMITS.agent),
  turn: z.number().int().min(0).max(ACTIVITY_PANEL_LIMITS.turn),
  /** A turn's words so far (all of them once done); a tool call's line. */
  text: z.string().max(ACTIVITY_PANEL_LIMITS.text),
  /** A turn whose answer is in (a tool line always is). */
  done: z.boolean(),
  /** False for a tool call that failed. */
  ok: z.boolean(),
  /** What the turn's model call cost, once done. */
  usage: activityUsage.optional(),
  /** A tool call's arguments and answer, shown when the line is expanded. Additive. */
  detail: z.string().max(ACTIVITY_PANEL_LIMITS.text).optional(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** `reset`: these entries replace the list (a new run or step); otherwise each is added or replaces the one with its id. */
export const activityMessageSchema = z.object({
  type: z.literal('activity'),
  runId,
  reset: z.boolean(),
  entries: z.array(activityEntrySchema).max(ACTIVITY_PANEL_LIMITS.entries),
});
export type ActivityMessage = z.infer<typeof activityMessageSchema>;

/** One conversation of a timeline step: its label and its turns in order. */
export interface StepTurnGroup {
  label: string;
  turns: TurnEvent[];
}

/** One checkpoint of a run as the panel shows it (plain data from the run's checkpoint index). */
export interface PanelCheckpoint {
  id: string;
  label: string;
  kind: 'plan' | 'iteration' | 'escalation' | 'guidance';
  node: string;
  iteration: number;
  tests: { total: number; passed: number; failed: number };
  green: boolean;
}

/** extension → webview */
export type ExtensionMessage =
  | ActivityMessage
  | {
      type: 'state';
      /** The run shown in the panel (the live one, or the last one), null before any run. */
      run: CodingState | null;
      /** True while a step is working (not waiting for the person, not finished). */
      busy: boolean;
      /** The status bar's text, e.g. `Ironbees 2/5 · Validating`. */
      statusText: string;
      /** The run did not finish and nothing follows it (after a window reload): the panel offers Resume. Additive. */
      interrupted?: boolean;
    }
  | { type: 'review'; runId: string; files: FileReview[] }
  | { type: 'history'; runs: RunSummary[] }
  | {
      type: 'settings';
      maxIterations: number;
      model: string;
      hasApiKey: boolean;
      /** The key's state naming the configured provider (`OpenAI-compatible API key set`). Additive. */
      keyStatus?: string;
    }
  | {
      type: 'modelInfo';
      /** The run whose own provider and model these are; null when they are what the settings choose for the next run. */
      runId: string | null;
      /** `OpenAI-compatible · gpt-4.1`, or `the scripted demo model`. */
      text: string;
      /** The fallback provider and model in the same words, or null when there is none. */
      fallback: string | null;
    }
  | { type: 'error'; message: string }
  | { type: 'notice'; message: string }
  /** The turns of a run's step as events.jsonl has them (every iteration of it), in order. */
  /** A step's turns, grouped by conversation on the extension's side (`label`: "PLAN", "CODE 2"). */
  | { type: 'stepTurns'; runId: string; node: TurnStep; groups: StepTurnGroup[] }
  /** The checkpoints of the run shown, oldest first (sent with every state change). Additive. */
  | { type: 'checkpoints'; runId: string; checkpoints: PanelCheckpoint[] };

export type ExtensionMessageType = ExtensionMessage['type'];
export type WebviewMessageType = WebviewMessage['type'];
