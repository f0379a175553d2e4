// The web page's side of the panel protocol (src/shared/protocol.ts): the same messages the editor
// exchanges with the side panel, carried by SSE (server → page, `/api/panel/events`) and POST
// (page → server, `/api/panel`). The page follows one workspace: the first --workspace-root, or the
// workspace of the run it last started or resumed.

import type { CodingState } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import { nodesOfKind } from '../core/nodes';
import { errorMessage } from '../core/errors';
import type { ActivityEvent } from '../core/activity';
import type { ActivityEntry, ExtensionMessage, WebviewMessage } from '../shared/protocol';
import { ACTIVITY_PANEL_LIMITS } from '../shared/protocol';
import { ReviewModel } from '../core/workspace/review-model';
import type { RunHub } from './runs';

const GATES: readonly string[] = nodesOfKind('gate');

type Send = (message: ExtensionMessage) => void;

function statusText(run: CodingState | null): string {
  if (!run) return 'Ironbees';
  return `Ironbees ${run.iterationCount}/${run.maxIterations} · ${run.currentNode}`;
}

function busy(run: CodingState | null): boolean {
  return !!run && !GATES.includes(run.currentNode) && !TERMINAL_NODES.includes(run.currentNode);
}

export class PanelFeed {
  private readonly followers = new Set<Send>();
  private current: CodingState | null = null;
  /** The person's verdicts at the diff gate a run waits at (per file and per hunk), by run. */
  private readonly reviews = new Map<string, ReviewModel>();
  private activityId = 0;

  constructor(
    private readonly hub: RunHub,
    private readonly workspace: string,
  ) {
    hub.subscribe((event) => {
      if (event.kind === 'state') {
        if (this.current && event.state.stateId !== this.current.stateId && !this.followsAnew(event.state)) return;
        const entered = this.current?.currentNode !== event.state.currentNode;
        if (entered) this.reviews.delete(event.state.stateId);
        this.current = event.state;
        this.broadcast(this.stateMessage());
        // A new proposal starts unjudged: the pages drop the verdicts they showed for the last one.
        if (entered && event.state.currentNode === 'WAIT_DIFF_APPROVAL') {
          this.broadcast({ type: 'review', runId: event.state.stateId, files: this.reviewOf(event.state).toFileReviews() });
        }
        if (TERMINAL_NODES.includes(event.state.currentNode)) void this.history().then((m) => this.broadcast(m));
        return;
      }
      const activity = event.event;
      if (activity.runId !== this.current?.stateId) return;
      const entry = this.entryOf(activity);
      if (entry) this.broadcast({ type: 'activity', runId: activity.runId, reset: false, entries: [entry] });
    });
  }

  /** A run the page did not start takes the page over only when the page's run has ended. */
  private followsAnew(state: CodingState): boolean {
    return !this.current || TERMINAL_NODES.includes(this.current.currentNode) || state.stateId === this.current.stateId;
  }

  follow(send: Send): () => void {
    this.followers.add(send);
    return () => this.followers.delete(send);
  }

  private broadcast(message: ExtensionMessage): void {
    for (const send of this.followers) send(message);
  }

  private stateMessage(): ExtensionMessage {
    return { type: 'state', run: this.current, busy: busy(this.current), statusText: statusText(this.current) };
  }

  private async history(): Promise<ExtensionMessage> {
    const runs = (await this.hub.list()).filter((r) => r.workspace === this.workspace);
    return { type: 'history', runs: runs.map(({ workspace: _w, live: _l, ...summary }) => summary) };
  }

  private entryOf(event: ActivityEvent): ActivityEntry | null {
    const clip = (text: string): string => text.slice(0, ACTIVITY_PANEL_LIMITS.text);
    if (event.kind === 'tool') {
      return {
        id: ++this.activityId,
        kind: 'tool',
        agent: event.agent,
        turn: event.turn,
        text: clip(event.line),
        done: true,
        ok: event.ok,
      };
    }
    if (event.kind === 'turn_end') {
      return {
        id: ++this.activityId,
        kind: 'turn',
        agent: event.agent,
        turn: event.turn,
        text: clip(event.text),
        done: true,
        ok: true,
        usage: event.usage,
      };
    }
    return null;
  }

  /** The review of the proposal `run` waits on, made on the first verdict. */
  private reviewOf(run: CodingState): ReviewModel {
    const known = this.reviews.get(run.stateId);
    if (known) return known;
    const made = new ReviewModel(run.stateId, run.codeDiffs);
    this.reviews.set(run.stateId, made);
    return made;
  }

  /** Records one verdict at the run's diff gate and shows every page the review so far. */
  private async judge(runId: string, verdict: (review: ReviewModel) => boolean, what: string): Promise<void> {
    const run = await this.hub.state(runId);
    if (run.currentNode !== 'WAIT_DIFF_APPROVAL')
      throw new Error(`The run is at ${run.currentNode}, not waiting for a review of its changes.`);
    const review = this.reviewOf(run);
    if (!verdict(review)) throw new Error(`${what} is not in this proposal.`);
    this.broadcast({ type: 'review', runId, files: review.toFileReviews() });
  }

  /** What a page that just connected (or said `ready`) needs to draw itself. */
  async snapshot(send: Send): Promise<void> {
    send({ type: 'settings', maxIterations: 5, model: '', hasApiKey: true, keyStatus: 'served by ironbees serve' });
    if (!this.current) {
      const latest = (await this.hub.list()).find((r) => r.workspace === this.workspace);
      if (latest) this.current = await this.hub.state(latest.runId);
    }
    send(this.stateMessage());
    send(await this.history());
    // A page reloaded mid-review sees the verdicts it gave.
    const review = this.current && this.reviews.get(this.current.stateId);
    if (review) send({ type: 'review', runId: review.runId, files: review.toFileReviews() });
  }

  /** One message of the page, already checked against the protocol's schema. */
  async handle(message: WebviewMessage, send: Send): Promise<void> {
    try {
      await this.dispatch(message, send);
    } catch (error) {
      send({ type: 'error', message: errorMessage(error) });
    }
  }

  private async dispatch(message: WebviewMessage, send: Send): Promise<void> {
    switch (message.type) {
      case 'ready':
      case 'refreshHistory':
        return message.type === 'ready' ? this.snapshot(send) : send(await this.history());
      case 'startRun': {
        this.current = null;
        const runId = await this.hub.start(this.workspace, message.request, {
          maxIterations: 5,
          planApproval: 'always',
          diffApproval: 'always',
        });
        this.current = await this.hub.state(runId);
        this.broadcast(this.stateMessage());
        return;
      }
      case 'approvePlan':
        return this.hub.answer(message.runId, 'WAIT_PLAN_APPROVAL', {
          type: 'APPROVE',
          ...(message.editedPlan ? { editedPlan: message.editedPlan } : {}),
        });
      case 'rejectPlan':
        return this.hub.answer(message.runId, 'WAIT_PLAN_APPROVAL', { type: 'REJECT', feedback: message.feedback });
      case 'setFileDecision':
        return this.judge(message.runId, (r) => r.setFile(message.filePath, message.accepted, message.reason), message.filePath);
      case 'setHunkDecision':
        return this.judge(
          message.runId,
          (r) => r.setHunk(message.filePath, message.hunk, message.accepted, message.reason),
          `Hunk ${message.hunk + 1} of ${message.filePath}`,
        );
      case 'submitReview': {
        // Nothing judged yet: the whole proposal is accepted.
        const review = this.reviews.get(message.runId);
        return this.hub.answer(message.runId, 'WAIT_DIFF_APPROVAL', review ? review.toDecision() : { type: 'APPROVE' });
      }
      case 'rejectDiffs':
        return this.hub.answer(message.runId, 'WAIT_DIFF_APPROVAL', { type: 'REJECT', feedback: message.feedback });
      case 'continueRun':
        return this.hub.answer(message.runId, 'WAIT_HUMAN', {
          type: 'CONTINUE',
          guidance: message.guidance,
          additionalIterations: message.additionalIterations,
        });
      case 'stopRun':
        return this.hub.answer(message.runId, 'WAIT_HUMAN', { type: 'STOP' });
      case 'cancelRun':
        await this.hub.cancel(message.runId);
        return;
      case 'resumeRun':
        await this.hub.resume(message.runId);
        return;
      default:
        // Opening files, diffs in an editor, turns of a step, revert: the editor's, not the page's.
        send({ type: 'notice', message: 'That is done in the editor or the CLI; the page shows the diffs inline.' });
    }
  }
}
