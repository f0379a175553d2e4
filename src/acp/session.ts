// One ACP session: a run, driven prompt turn by prompt turn. A prompt starts the run (its text is the
// request); the plan and each staged edit are put to the person through `session/request_permission`;
// a rejected plan (or diffs, or an escalation) ends the turn and the next prompt is the reason (or the
// guidance). `session/cancel` interrupts the run, which stays persisted: the next prompt resumes it.

import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk' with {
  'resolution-mode': 'import',
};
import type { ApprovalDecision, CodingState, FileDecision, WorkflowContext } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import type { ActivityEvent } from '../core/activity';
import type { Orchestrator } from '../core/trace';
import type { Logger } from '../core/host';
import type { EditorWrites } from './editor-fs';
import type { EditorReads } from './editor-reads';
import * as path from 'node:path';
import {
  DIFF_OPTIONS,
  PLAN_OPTIONS,
  editToolCall,
  handoffText,
  planToolCall,
  planUpdate,
  text,
  unsavedText,
  unvalidatedText,
  validationText,
} from './updates';

/** What a session needs of the client connection. */
export interface SessionClient {
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  /** `signal` aborted: the request is withdrawn ($/cancel_request); the client answers it "cancelled". */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

export interface SessionDeps {
  sessionId: string;
  workspaceRoot: string;
  orchestrator: Orchestrator;
  client: SessionClient;
  writes: EditorWrites;
  /** Reads of the editor's buffers, through this session while its turn runs. */
  reads: EditorReads;
  logger: Logger;
  /** The context of a run a prompt starts. */
  context: WorkflowContext;
  /** Told the run's id once its first state is in (the session can then be loaded by it). */
  onRun?(runId: string): void;
}

type Gate = 'WAIT_PLAN_APPROVAL' | 'WAIT_DIFF_APPROVAL' | 'WAIT_HUMAN';

class Cancelled extends Error {}

export class AcpSession {
  private runId: string | null = null;
  private iterator: AsyncIterator<CodingState> | null = null;
  private controller: AbortController | null = null;
  /** The gate whose answer is the next prompt's text (a reason for a reject, guidance at WAIT_HUMAN). */
  private awaitingWords: Gate | null = null;
  private turn: AbortController | null = null;
  private last: CodingState | null = null;
  /** The tool calls of approved edits not yet written (VALIDATE writes them first). */
  private readonly applying: string[] = [];
  /** Files of this run whose editor buffer differed from the saved file when last read (named to the person). */
  private readonly unsaved = new Set<string>();

  constructor(private readonly deps: SessionDeps) {}

  get id(): string {
    return this.deps.sessionId;
  }

  /** A run's latest state, from memory or from disk. */
  orchestratorState(runId: string): Promise<CodingState> {
    return this.deps.orchestrator.getState(runId);
  }

  /** A persisted run this session continues (session/load); its next prompt resumes it. */
  attach(state: CodingState): void {
    this.runId = state.stateId;
    this.last = state;
  }

  async prompt(words: string): Promise<StopReason> {
    if (this.turn) throw new Error('A prompt is already running in this session.');
    const turn = (this.turn = new AbortController());
    const stopActivity = this.followActivity();
    const detach = this.deps.reads.attach(this.deps.workspaceRoot, {
      sessionId: this.id,
      signal: turn.signal,
      seen: (rel, unsaved) => this.seen(rel, unsaved),
    });
    try {
      await this.begin(words);
      return await this.pump(turn.signal);
    } catch (error) {
      if (error instanceof Cancelled || turn.signal.aborted) return 'cancelled';
      throw error;
    } finally {
      stopActivity();
      detach();
      this.deps.writes.clear();
      this.deps.writes.takeWritten();
      this.turn = null;
    }
  }

  /** session/cancel: the turn ends `cancelled`; the run stops where it is, persisted and resumable. */
  cancel(): void {
    if (!this.turn) return;
    this.turn.abort();
    this.controller?.abort();
    this.iterator = null;
    this.controller = null;
  }

  /** The connection closed: a run in flight stops, persisted. */
  close(): void {
    this.turn?.abort();
    this.controller?.abort();
  }

  private async begin(words: string): Promise<void> {
    const { orchestrator } = this.deps;
    const gate = this.awaitingWords;
    if (gate && this.runId && this.iterator) {
      this.awaitingWords = null;
      const decision: ApprovalDecision =
        gate === 'WAIT_HUMAN'
          ? /^\s*stop\s*$/i.test(words)
            ? { type: 'STOP' }
            : { type: 'CONTINUE', guidance: words, additionalIterations: 2 }
          : { type: 'REJECT', feedback: words };
      await orchestrator.approve(this.runId, decision);
      return;
    }
    this.awaitingWords = null;
    const controller = (this.controller = new AbortController());
    if (this.runId && this.last && !TERMINAL_NODES.includes(this.last.currentNode)) {
      // A run interrupted (or loaded) here: it goes on from its last step.
      this.iterator = orchestrator.resume(this.runId, controller.signal)[Symbol.asyncIterator]();
      return;
    }
    this.runId = null;
    this.last = null;
    this.unsaved.clear();
    this.iterator = orchestrator.execute(words, this.deps.context, controller.signal)[Symbol.asyncIterator]();
  }

  /** Follows the run until it ends, waits for words, or the turn is cancelled. */
  private async pump(signal: AbortSignal): Promise<StopReason> {
    const iterator = this.iterator;
    if (!iterator) return 'end_turn';
    for (;;) {
      const next = await iterator.next();
      if (signal.aborted) return 'cancelled';
      if (next.done) {
        this.iterator = null;
        this.controller = null;
        return 'end_turn';
      }
      const state = next.value;
      const previous = this.last;
      this.last = state;
      if (!this.runId) {
        this.runId = state.stateId;
        this.deps.onRun?.(state.stateId);
      }
      await this.show(previous, state);
      const stop = await this.answerGate(state, signal);
      if (stop) return stop;
      if (TERMINAL_NODES.includes(state.currentNode)) {
        this.iterator = null;
        this.controller = null;
        return 'end_turn';
      }
    }
  }

  private async show(previous: CodingState | null, state: CodingState): Promise<void> {
    const say = (update: SessionUpdate): Promise<void> => this.deps.client.update(this.id, update);
    if (previous?.currentNode === 'VALIDATE' && state.currentNode !== 'VALIDATE') {
      // VALIDATE applies the approved edits before it builds: once it is over, they are written (or not).
      this.deps.writes.clear();
      const status = state.currentNode === 'FAILED' || state.currentNode === 'CANCELLED' ? 'failed' : 'completed';
      for (const toolCallId of this.applying.splice(0)) await say({ sessionUpdate: 'tool_call_update', toolCallId, status });
      // A file written through the editor: its buffer and the disk agree, and the build saw that text.
      const written = new Set(this.deps.writes.takeWritten());
      for (const rel of [...this.unsaved]) if (written.has(path.resolve(this.deps.workspaceRoot, rel))) this.unsaved.delete(rel);
      const line = validationText(state);
      if (line) await say(text(line));
      if (line && this.unsaved.size > 0) await say(text(unvalidatedText([...this.unsaved].sort())));
    }
    if (state.currentNode === 'SUCCESS' && state.plan) await say(planUpdate(state.plan, 'completed'));
    const end = handoffText(state);
    if (end) await say(text(end));
  }

  /** At a gate: asks the person; returns a stop reason when the turn ends here. */
  private async answerGate(state: CodingState, signal: AbortSignal): Promise<StopReason | null> {
    const runId = state.stateId;
    if (state.currentNode === 'WAIT_PLAN_APPROVAL' && state.plan) {
      const toolCallId = `plan-${runId}-${state.iterationCount}`;
      await this.deps.client.update(this.id, planUpdate(state.plan, 'pending'));
      await this.deps.client.update(this.id, planToolCall(toolCallId, state.plan));
      const answer = await this.ask({ sessionId: this.id, toolCall: { toolCallId }, options: PLAN_OPTIONS }, signal);
      await this.deps.client.update(this.id, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: answer === 'approve' ? 'completed' : 'failed',
      });
      if (answer === 'approve') {
        await this.deps.client.update(this.id, planUpdate(state.plan, 'in_progress'));
        await this.deps.orchestrator.approve(runId, { type: 'APPROVE' });
        return null;
      }
      this.awaitingWords = 'WAIT_PLAN_APPROVAL';
      await this.deps.client.update(this.id, text('Plan rejected. What should change? Your next message goes to the planner.\n'));
      return 'end_turn';
    }
    if (state.currentNode === 'WAIT_DIFF_APPROVAL') return this.answerDiffs(state, signal);
    if (state.currentNode === 'WAIT_HUMAN') {
      this.awaitingWords = 'WAIT_HUMAN';
      return 'end_turn';
    }
    return null;
  }

  private async answerDiffs(state: CodingState, signal: AbortSignal): Promise<StopReason | null> {
    const runId = state.stateId;
    const decisions: FileDecision[] = [];
    const ids: string[] = [];
    let all = false;
    for (const [index, edit] of state.codeDiffs.entries()) {
      const toolCallId = `edit-${runId}-${state.iterationCount}-${index}`;
      ids.push(toolCallId);
      await this.deps.client.update(this.id, editToolCall(toolCallId, this.deps.workspaceRoot, edit));
      const answer = all ? 'approve' : await this.ask({ sessionId: this.id, toolCall: { toolCallId }, options: DIFF_OPTIONS }, signal);
      if (answer === 'approve_all') all = true;
      decisions.push({ filePath: edit.filePath, accepted: answer !== 'reject' });
    }
    const accepted = decisions.filter((decision) => decision.accepted);
    for (const [index, decision] of decisions.entries()) {
      if (!decision.accepted)
        await this.deps.client.update(this.id, { sessionUpdate: 'tool_call_update', toolCallId: ids[index], status: 'failed' });
    }
    if (accepted.length === 0) {
      this.awaitingWords = 'WAIT_DIFF_APPROVAL';
      await this.deps.client.update(this.id, text('Changes rejected. Why? Your next message goes to the coder.\n'));
      return 'end_turn';
    }
    if (this.deps.writes.enabled) {
      this.deps.writes.expect(
        this.id,
        accepted.map((decision) => path.join(this.deps.workspaceRoot, decision.filePath)),
      );
    }
    this.applying.splice(0, this.applying.length, ...ids.filter((_, index) => decisions[index].accepted));
    await this.deps.orchestrator.approve(runId, { type: 'APPROVE', files: decisions });
    return null;
  }

  private async ask(request: RequestPermissionRequest, signal: AbortSignal): Promise<string> {
    const response = await this.deps.client.requestPermission(request, signal);
    if (signal.aborted || response.outcome.outcome === 'cancelled') {
      this.cancelFromInside();
      throw new Cancelled();
    }
    return response.outcome.optionId;
  }

  /** The client answered a permission request "cancelled": the turn ends as a session/cancel would. */
  private cancelFromInside(): void {
    this.controller?.abort();
    this.iterator = null;
    this.controller = null;
  }

  /** A read through the editor: an unsaved buffer is named to the person the first time it is seen. */
  private seen(rel: string, unsaved: boolean): void {
    if (!unsaved) {
      this.unsaved.delete(rel);
      return;
    }
    if (this.unsaved.has(rel)) return;
    this.unsaved.add(rel);
    this.deps.client
      .update(this.id, text(unsavedText(rel, this.deps.writes.enabled)))
      .catch((error: unknown) => this.deps.logger.debug(`session/update: ${String(error)}`));
  }

  /** The model's words of this session's run, streamed as agent_message_chunk while the turn runs. */
  private followActivity(): () => void {
    const subscribe = this.deps.orchestrator.onActivity?.bind(this.deps.orchestrator);
    if (!subscribe) return () => undefined;
    const streamed = new Map<string, string>();
    return subscribe((event: ActivityEvent) => {
      if (!this.runId || event.runId !== this.runId) return;
      if (event.kind !== 'text' && event.kind !== 'turn_end') return;
      const key = `${event.agent}:${event.turn}`;
      const sent = streamed.get(key) ?? '';
      let words = event.text;
      if (event.kind === 'turn_end') {
        streamed.delete(key);
        words = event.text.startsWith(sent) ? event.text.slice(sent.length) : sent ? '' : event.text;
        if (words.trim()) words += '\n';
      } else {
        streamed.set(key, sent + words);
      }
      if (!words.trim()) return;
      this.deps.client.update(this.id, text(words)).catch((error: unknown) => this.deps.logger.debug(`session/update: ${String(error)}`));
    });
  }
}
