// Follows a run to its end, shared by `run` and `resume`: prints each snapshot (JSON lines on
// stdout with --json, progress on stderr), answers the human gates (from the terminal, or
// automatically with --yes), and turns Ctrl-C into a clean stop that leaves the run resumable.

import type { ApprovalDecision, CodingState } from '../../core/model';
import { TERMINAL_NODES } from '../../core/model';
import { nodesOfKind } from '../../core/nodes';
import type { Orchestrator } from '../../core/trace';
import { errorMessage } from '../../core/errors';
import { DEFAULT_EXTRA_ITERATIONS, askGateDecision } from '../approvals';
import { ExitCode, exitCodeForError, exitCodeForNode } from '../exit-codes';
import { LinePrompter, PromptClosedError } from '../prompts';
import { describeTransition } from '../render/state';
import { approveEveryTool, askToolDecision } from '../tool-approvals';
import type { ToolApprovalRelay } from '../tool-approvals';
import type { CliIo, Colors } from '../terminal';
import { isTty, writeJsonLine } from '../terminal';
import { ActivityPrinter } from '../activity-printer';
import type { ActivityLevel } from '../args';
import { StderrLines } from '../stderr-lines';
import { StepOrderedActivity } from '../activity-order';

export interface DriveOptions {
  yes: boolean;
  /** With `yes`: the plan's `knownFailures` excuse those tests. Without it a standing approval excuses none. */
  acceptKnownFailures?: boolean;
  json: boolean;
  /** How much live activity to print on stderr (default normal). */
  activity?: ActivityLevel;
  /** The live activity as JSON lines on stderr instead of human lines. */
  activityJson?: boolean;
  /** --guidance: the answer at the first WAIT_HUMAN (after an escalation or a rewind), given once. */
  guidance?: string;
}

export interface DriveContext {
  io: CliIo;
  colors: Colors;
  orchestrator: Orchestrator;
  /** Given to the orchestrator when it was built; answered here while the run is followed. */
  toolApprovals?: ToolApprovalRelay;
  /** stderr as the logger writes it too, so a warning never tears the live line (one made when absent). */
  lines?: StderrLines;
}

const GATES: readonly string[] = nodesOfKind('gate');

function resumeHint(runId: string): string {
  return `Run ${runId} interrupted; resume with: ironbees resume ${runId}`;
}

/** `start` begins (or resumes) the run with the abort signal; resolves with the exit code. */
export async function driveRun(
  ctx: DriveContext,
  options: DriveOptions,
  start: (signal: AbortSignal) => AsyncIterable<CodingState>,
): Promise<number> {
  const { io, colors, orchestrator } = ctx;
  const lines = ctx.lines ?? new StderrLines(io.stderr);
  const err = (text: string): void => lines.line(text);
  const controller = new AbortController();
  let interrupted = false;

  // Made at the first question: a run with --yes asks none, so it never opens stdin.
  const opened: { prompter: LinePrompter | null } = { prompter: null };
  const prompterNow = (): LinePrompter =>
    (opened.prompter ??= new LinePrompter({ input: io.stdin, output: io.stderr, terminal: isTty(io.stdin), onInterrupt: interrupt }));
  function interrupt(): void {
    if (interrupted) {
      // A second Ctrl-C: the person wants out now, persisted or not.
      io.exitNow?.(ExitCode.INTERRUPTED);
      return;
    }
    interrupted = true;
    err(colors.yellow('\nInterrupting… the run is kept and can be resumed (Ctrl-C again to quit at once).'));
    opened.prompter?.cancel();
    controller.abort();
  }
  const unsubscribe = io.onInterrupt?.(interrupt) ?? ((): void => undefined);
  const activity = followActivity(ctx, options, lines);
  const gateIo = {
    get prompter(): LinePrompter {
      return prompterNow();
    },
    show: err,
    colors,
  };
  const detachToolApprovals =
    ctx.toolApprovals?.attach(options.yes ? approveEveryTool : (request) => askToolDecision(gateIo, request)) ?? ((): void => undefined);

  let last: CodingState | null = null;
  let stoppedByPerson = false;
  let escalatedUnattended = false;
  let guidance = options.guidance;
  try {
    for await (const state of start(controller.signal)) {
      const previous = last;
      const show = (): void => {
        if (options.json) writeJsonLine(io.stdout, state);
        for (const line of describeTransition(previous, state, colors)) err(line);
        activity.stateShown(state.currentNode);
      };
      last = state;
      if (options.yes && GATES.includes(state.currentNode) && state.currentNode !== 'WAIT_HUMAN') {
        // Answered, then shown: the next step starts at once and the printing runs while it waits
        // for its first files (the lines come out in the same order: the next state waits for this loop).
        try {
          await orchestrator.approve(state.stateId, standingApproval(state, options));
        } finally {
          show();
        }
        continue;
      }
      show();
      if (!GATES.includes(state.currentNode)) continue;
      if (state.currentNode === 'WAIT_HUMAN' && guidance !== undefined) {
        const decision: ApprovalDecision = { type: 'CONTINUE', guidance, additionalIterations: DEFAULT_EXTRA_ITERATIONS };
        guidance = undefined;
        await orchestrator.approve(state.stateId, decision);
        continue;
      }
      if (options.yes) {
        // Unattended, nobody can give guidance: stop here, at the gate, so a person can resume it.
        escalatedUnattended = true;
        break;
      }
      const decision = await askGateDecision(gateIo, state);
      if (!decision) continue;
      if (decision.type === 'STOP') stoppedByPerson = true;
      await orchestrator.approve(state.stateId, decision);
    }
  } catch (error) {
    if (!(error instanceof PromptClosedError)) {
      err(colors.red(`error: ${errorMessage(error)}`));
      if (last && !TERMINAL_NODES.includes(last.currentNode)) err(`The run is kept; resume with: ironbees resume ${last.stateId}`);
      return exitCodeForError(error);
    }
    // EOF or Ctrl-C at a prompt: the run waits at its gate, persisted, exactly like an interrupt.
    if (error.reason === 'eof') err(colors.yellow('\nNo more answers on stdin.'));
    interrupted = true;
    controller.abort();
  } finally {
    unsubscribe();
    activity.stop();
    detachToolApprovals();
    opened.prompter?.close();
  }
  return finish(last, { interrupted, stoppedByPerson, escalatedUnattended }, err);
}

/**
 * What `--yes` answers at a plan or diff gate. At the plan gate it is marked unattended unless the
 * person passed --accept-known-failures: the model's excuses for failing tests are never accepted
 * on an approval nobody read.
 */
function standingApproval(state: CodingState, options: DriveOptions): ApprovalDecision {
  if (state.currentNode === 'WAIT_PLAN_APPROVAL' && options.acceptKnownFailures !== true) return { type: 'APPROVE', unattended: true };
  return { type: 'APPROVE' };
}

interface FollowedActivity {
  /** Called after each state is printed: activity held for the step it belongs to comes out under it. */
  stateShown(node: CodingState['currentNode']): void;
  stop(): void;
}

/** Prints the orchestrator's live activity on stderr while the run is followed, each line under its step. */
function followActivity(ctx: DriveContext, options: DriveOptions, lines: StderrLines): FollowedActivity {
  const level = options.activity ?? 'normal';
  if (level === 'quiet' || !ctx.orchestrator.onActivity) return { stateShown: () => undefined, stop: () => undefined };
  const printer = options.activityJson ? null : new ActivityPrinter(lines, level, ctx.colors);
  const ordered = new StepOrderedActivity((event) => (printer ? printer.print(event) : lines.line(JSON.stringify(event))));
  const unsubscribe = ctx.orchestrator.onActivity((event) => ordered.event(event));
  return {
    stateShown: (node) => ordered.stateShown(node),
    stop: () => {
      unsubscribe();
      ordered.flush();
      printer?.close();
    },
  };
}

function finish(
  last: CodingState | null,
  how: { interrupted: boolean; stoppedByPerson: boolean; escalatedUnattended: boolean },
  err: (text: string) => void,
): number {
  if (!last) {
    err(how.interrupted ? 'Interrupted before the run started; nothing was kept.' : 'The run ended before it started.');
    return how.interrupted ? ExitCode.INTERRUPTED : ExitCode.FAILED;
  }
  const terminal = TERMINAL_NODES.includes(last.currentNode);
  if (how.escalatedUnattended) {
    const handoff = typeof last.metadata.handoffPath === 'string' ? last.metadata.handoffPath : 'HANDOFF.md';
    err(`Run ${last.stateId} needs a person: read ${handoff}, then continue with: ironbees resume ${last.stateId}`);
    return ExitCode.ESCALATED;
  }
  if (!terminal) {
    // Ctrl-C, EOF at a prompt, or the stream ending mid-run: all leave the run persisted at its last step.
    err(resumeHint(last.stateId));
    return ExitCode.INTERRUPTED;
  }
  if (last.currentNode === 'CANCELLED' && how.stoppedByPerson) err(`Run ${last.stateId} stopped at the escalation.`);
  // A set-up problem found at the baseline (a feed or package restore cannot get): nothing was changed.
  if (last.currentNode === 'FAILED' && last.metadata.failureKind === 'configuration') return ExitCode.USAGE;
  return exitCodeForNode(last.currentNode, how.stoppedByPerson);
}
