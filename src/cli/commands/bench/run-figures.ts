// What one bench task's run recorded, read back from its folder (.ironbees/runs/<id>/): state.json,
// validations/*.json, events.jsonl and HANDOFF.md. Only what those files hold is reported; a figure
// they do not record is null (shown as "n/a"), never guessed.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CodingState, TestResult } from '../../../core/model';
import type { TraceEvent, TurnEvent } from '../../../core/trace';
import { summarizeTurns, turnsOf } from '../../../core/workflow/trace-summary';
import type { BenchTask } from './task-file';

export interface TestVerdict {
  name: string;
  ok: boolean;
}

export interface TaskFigures {
  runId: string | null;
  finalNode: string | null;
  pass: boolean;
  failToPass: TestVerdict[];
  passToPass: TestVerdict[];
  /** The iteration whose validation first passed; null when none did. */
  iterationsToGreen: number | null;
  iterations: number | null;
  protocol: {
    turns: number;
    plainTextTurns: number;
    malformedTurns: number;
    maxTokensStops: number;
    budgetExhaustions: number;
    stuckStops: number;
  };
  edits: { strReplaceFailures: Array<{ kind: string; count: number }>; refusedCreates: number };
  compile: { checkCodeCalls: number; checkCodeFailures: number; preReviewChecks: number; preReviewFailures: number };
  integrity: { testFilesTouched: string[]; skipsAdded: number | null };
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Cache reads over every input token (fresh, cache read, cache write); null when there was no input. */
  cacheShare: number | null;
  costUsd: number | null;
  wallMs: number;
  /** Why the run could not be judged (no run, no validation), when it could not. */
  note?: string;
}

interface Validation {
  iteration?: number;
  passed: boolean;
  test: TestResult | null;
  fixedFailures?: string[];
  /** In baseline.json: test project → the tests that ran there. */
  ranTests?: Record<string, string[]>;
}

const EDITOR = 'str_replace_based_edit_tool';
const REFUSED_CREATE = 'create only makes new files';
/** A path in a test project or a test file, as .NET repositories name them. */
const TEST_PATH = /(^|\/)[^/]*tests?[^/]*\/|tests?\.cs$/i;

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function readEvents(file: string): Promise<TraceEvent[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const events: TraceEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as TraceEvent);
    } catch {
      // A torn last line (a crash mid-append) is skipped, as the run store does.
    }
  }
  return events;
}

/** The single run a task's fresh copy holds (the bench starts exactly one). */
export async function onlyRunId(workspace: string): Promise<string | null> {
  const dir = path.join(workspace, '.ironbees', 'runs');
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const runs: string[] = [];
  // Beside the runs the store keeps its own folders (".open-applies"); a run is a folder with a state.json.
  for (const entry of entries) {
    if (entry.isDirectory() && !entry.name.startsWith('.') && (await fs.stat(path.join(dir, entry.name, 'state.json')).catch(() => null))) {
      runs.push(entry.name);
    }
  }
  return runs.length === 1 ? runs[0] : null;
}

/** The figures of a run from its files; `validations` ordered by iteration. */
export function figuresOf(
  task: BenchTask,
  input: {
    runId: string | null;
    state: CodingState | null;
    validations: Validation[];
    baseline: Validation | null;
    events: TraceEvent[];
    handoff: string;
    wallMs: number;
  },
): TaskFigures {
  const final = input.validations.at(-1) ?? null;
  const failures = new Set((final?.test?.failures ?? []).map((failure) => failure.testName));
  const fixed = new Set(final?.fixedFailures ?? []);
  // Every test in scope ran only when the final test run was not narrowed to the last failures.
  const fullRun = final?.test != null && !final.test.onlyLastFailures;
  const failToPass = task.failToPass.map((name) => ({ name, ok: fixed.has(name) }));
  // Where the baseline lists the tests that ran, a pass_to_pass test must be among them (a misspelt name
  // must not pass by never running); runs that do not record them are judged on the failures alone.
  const ran = input.baseline?.ranTests ? new Set(Object.values(input.baseline.ranTests).flat()) : null;
  const passToPass = task.passToPass.map((name) => ({ name, ok: fullRun && !failures.has(name) && (ran === null || ran.has(name)) }));
  const turns: TurnEvent[] = turnsOf(input.events);
  const summary = summarizeTurns(turns);
  const calls = input.events.filter((e): e is Extract<TraceEvent, { kind: 'tool_call' }> => e.kind === 'tool_call');
  const editorFailures = calls.filter((call) => call.tool === EDITOR && !call.ok);
  const byKind = new Map<string, number>();
  for (const call of editorFailures.filter((c) => !c.error?.includes(REFUSED_CREATE))) {
    const kind = call.failureKind ?? 'unknown';
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  const checks = calls.filter((call) => call.tool === 'check_code');
  const preReview = input.events.filter((e) => e.kind === 'compile_check') as Array<Extract<TraceEvent, { kind: 'compile_check' }>>;
  const touched = input.events.flatMap((e) => (e.kind === 'edit_applied' && TEST_PATH.test(e.filePath) ? [e.filePath] : []));
  const escalated = input.state?.currentNode !== 'SUCCESS';
  const budget = escalated && /--max-(cost|tokens|minutes)/.test(input.handoff);
  const baseSkipped = input.baseline?.test?.skipped;
  const finalSkipped = final?.test?.skipped;
  const fresh = summary.tokens.input + summary.tokens.cacheRead + summary.tokens.cacheWrite;
  const usage = input.state?.usage;
  return {
    runId: input.runId,
    finalNode: input.state?.currentNode ?? null,
    pass: final !== null && failToPass.every((t) => t.ok) && passToPass.every((t) => t.ok),
    failToPass,
    passToPass,
    iterationsToGreen: input.validations.find((v) => v.passed)?.iteration ?? null,
    iterations: input.state?.iterationCount ?? null,
    protocol: {
      turns: summary.turns,
      plainTextTurns: turns.filter((turn) => turn.intent === 'answer_text').length,
      malformedTurns: summary.malformedTurns,
      maxTokensStops: turns.filter((turn) => turn.stop_reason === 'max_tokens').length,
      budgetExhaustions: budget ? 1 : 0,
      stuckStops: escalated && !budget && /Help was requested during/.test(input.handoff) ? 1 : 0,
    },
    edits: {
      strReplaceFailures: [...byKind]
        .map(([kind, count]) => ({ kind, count }))
        .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
      refusedCreates: editorFailures.filter((c) => c.error?.includes(REFUSED_CREATE)).length,
    },
    compile: {
      checkCodeCalls: checks.length,
      checkCodeFailures: checks.filter((c) => !c.ok).length,
      preReviewChecks: preReview.length,
      preReviewFailures: preReview.filter((c) => !c.ok).length,
    },
    integrity: {
      testFilesTouched: [...new Set(touched)].sort(),
      skipsAdded: baseSkipped !== undefined && finalSkipped !== undefined ? Math.max(0, finalSkipped - baseSkipped) : null,
    },
    tokens: {
      input: usage?.inputTokens ?? summary.tokens.input,
      output: usage?.outputTokens ?? summary.tokens.output,
      cacheRead: usage?.cacheReadTokens ?? summary.tokens.cacheRead,
      cacheWrite: usage?.cacheWriteTokens ?? summary.tokens.cacheWrite,
    },
    cacheShare: fresh > 0 ? summary.tokens.cacheRead / fresh : null,
    costUsd: usage ? (usage.costUnknown ? null : usage.costUsd) : null,
    wallMs: input.wallMs,
    ...(input.runId === null
      ? { note: 'no run was recorded' }
      : final === null
        ? { note: 'no validation after an edit was recorded' }
        : {}),
  };
}

/** Reads the run of a task's copy and works out its figures. */
export async function readTaskFigures(task: BenchTask, workspace: string, wallMs: number): Promise<TaskFigures> {
  const runId = await onlyRunId(workspace);
  if (runId === null) return figuresOf(task, { runId, state: null, validations: [], baseline: null, events: [], handoff: '', wallMs });
  const dir = path.join(workspace, '.ironbees', 'runs', runId);
  const state = (await readJson<{ codingState: CodingState }>(path.join(dir, 'state.json')))?.codingState ?? null;
  const files = await fs.readdir(path.join(dir, 'validations')).catch(() => [] as string[]);
  const iterations = files
    .map((f) => /^(\d+)\.json$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const validations: Validation[] = [];
  for (const n of iterations) {
    const v = await readJson<Validation>(path.join(dir, 'validations', `${n}.json`));
    if (v) validations.push({ ...v, iteration: v.iteration ?? n });
  }
  return figuresOf(task, {
    runId,
    state,
    validations,
    baseline: await readJson<Validation>(path.join(dir, 'validations', 'baseline.json')),
    events: await readEvents(path.join(dir, 'events.jsonl')),
    handoff: await fs.readFile(path.join(dir, 'HANDOFF.md'), 'utf8').catch(() => ''),
    wallMs,
  });
}
