// The web page's side of the panel protocol (src/shared/protocol.ts): the same messages the editor
// exchanges with the side panel, carried by SSE (server → page, `/api/panel/events`) and POST
// (page → server, `/api/panel`). The page follows one workspace: the first --workspace-root, or the
// workspace of the run it last started or resumed.

import type { CodingState, FileDecision } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import { nodesOfKind } from '../core/nodes';
import { errorMessage } from '../core/errors';
import type { ActivityEvent } from '../core/activity';
import type { ActivityEntry, ExtensionMessage, FileReview, WebviewMessage } from '../shared/protocol';
import { ACTIVITY_PANEL_LIMITS } from '../shared/protocol';
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

function stats(diffText: string): { added: number; removed: number; hunkCount: number } {
  let added = 0;
  let removed = 0;
  let hunkCount = 0;
  for (const line of diffText.split('\n')) {
    if (line.startsWith('@@')) hunkCount++;
    else if (line.startsWith('+++') || line.startsWith('---')) continue;
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed, hunkCount };
}

export class PanelFeed {
  private readonly followers = new Set<Send>();
  private current: CodingState | null = null;
  private readonly decisions = new Map<string, Map<string, FileDecision>>();
  private activityId = 0;

  constructor(
    private readonly hub: RunHub,
    private readonly workspace: string,
  ) {
    hub.subscribe((event) => {
      if (event.kind === 'state') {
        if (this.current && event.state.stateId !== this.current.stateId && !this.followsAnew(event.state)) return;
        if (this.current?.currentNode !== event.state.currentNode) this.decisions.delete(event.state.stateId);
        this.current = event.state;
        this.broadcast(this.stateMessage());
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

  private review(run: CodingState): ExtensionMessage {
    const decided = this.decisions.get(run.stateId) ?? new Map<string, FileDecision>();
    const files: FileReview[] = run.codeDiffs.map((diff) => {
      const decision = decided.get(diff.filePath);
      const status = !decision ? 'pending' : decision.accepted ? 'accepted' : 'rejected';
      return { filePath: diff.filePath, type: diff.type, status, rejectedHunks: [], ...stats(diff.diffText) };
    });
    return { type: 'review', runId: run.stateId, files };
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
      case 'setFileDecision': {
        const decided = this.decisions.get(message.runId) ?? new Map<string, FileDecision>();
        this.decisions.set(message.runId, decided);
        decided.set(message.filePath, {
          filePath: message.filePath,
          accepted: message.accepted,
          ...(message.reason ? { reason: message.reason } : {}),
        });
        const run = await this.hub.state(message.runId);
        this.broadcast(this.review(run));
        return;
      }
      case 'submitReview': {
        const files = [...(this.decisions.get(message.runId)?.values() ?? [])];
        return this.hub.answer(message.runId, 'WAIT_DIFF_APPROVAL', files.length ? { type: 'APPROVE', files } : { type: 'APPROVE' });
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
