// Signed webhooks when a run needs a person or has ended, from `ironbees serve`, the CLI's runs and the editor.
// A POST of JSON {event, runId, node, request, summary, text} (`text` is what Slack-compatible
// receivers show), signed `X-Ironbees-Signature: sha256=<hex HMAC-SHA256 of the body>` with
// IRONBEES_NOTIFY_SECRET. Sent in the background with retries and backoff: a slow or dead receiver
// never holds a run up, and a failure is one warning line.

import { createHmac } from 'node:crypto';
import type { CodingState, WorkflowNode } from '../model';
import { TERMINAL_NODES } from '../model';
import type { Logger } from '../host';
import { errorMessage } from '../errors';

export type NotifyEventName = 'needs_person' | 'run_ended';

export interface NotifyPayload {
  event: NotifyEventName;
  runId: string;
  node: WorkflowNode;
  request: string;
  summary: string;
  text: string;
}

export interface NotifierOptions {
  url: string;
  /** IRONBEES_NOTIFY_SECRET; without one the body is sent unsigned. */
  secret?: string;
  logger: Pick<Logger, 'warn'>;
  /** Attempts in all (default 4), and the first wait between them (doubled each time; default 1 s). */
  attempts?: number;
  backoffMs?: number;
  /** One attempt's time limit (default 10 s). */
  timeoutMs?: number;
}

export const SIGNATURE_HEADER = 'X-Ironbees-Signature';

/** The header value a receiver recomputes from the raw body and its copy of the secret. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const GATE_TEXT: Partial<Record<WorkflowNode, string>> = {
  WAIT_PLAN_APPROVAL: 'review the plan',
  WAIT_DIFF_APPROVAL: 'review the changes',
  WAIT_HUMAN: 'decide how to go on (see HANDOFF.md)',
};

/** The event a new state is worth, if any: a gate entered, or the end. */
export function notifyPayloadFor(state: CodingState, previous: WorkflowNode | null): NotifyPayload | null {
  const node = state.currentNode;
  if (node === previous) return null;
  const request = state.userRequest;
  const short = request.length > 200 ? `${request.slice(0, 199)}…` : request;
  const gate = GATE_TEXT[node];
  if (gate) {
    const summary = `Run ${state.stateId} waits at ${node}: ${gate}.`;
    return {
      event: 'needs_person',
      runId: state.stateId,
      node,
      request,
      summary,
      text: `Ironbees needs you: ${gate} — "${short}" (run ${state.stateId})`,
    };
  }
  if (TERMINAL_NODES.includes(node)) {
    const tests = state.testResult ? `, tests ${state.testResult.passed}/${state.testResult.total} passing` : '';
    const summary = `Run ${state.stateId} ended ${node} after ${state.iterationCount} iteration(s)${tests}.`;
    return {
      event: 'run_ended',
      runId: state.stateId,
      node,
      request,
      summary,
      text: `Ironbees run ${node}: "${short}" (run ${state.stateId})${tests}`,
    };
  }
  return null;
}

export class WebhookNotifier {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: NotifierOptions) {}

  /** Queues the POST and returns at once. */
  notify(payload: NotifyPayload): void {
    const sending = this.deliver(JSON.stringify(payload)).finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Resolves once every queued POST was delivered or given up (for a clean exit). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private async deliver(body: string): Promise<void> {
    const attempts = this.options.attempts ?? 4;
    let wait = this.options.backoffMs ?? 1000;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'ironbees-notify' };
    if (this.options.secret) headers[SIGNATURE_HEADER] = signatureOf(body, this.options.secret);
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const response = await fetch(this.options.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        if (response.ok) return;
        last = `HTTP ${response.status}`;
        // A 4xx other than 408 and 429 will not get better by asking again.
        if (response.status < 500 && response.status !== 408 && response.status !== 429) break;
      } catch (error) {
        last = errorMessage(error);
      }
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      wait *= 2;
    }
    this.options.logger.warn(`Notification to ${redactedUrl(this.options.url)} was not delivered (${last}).`);
  }
}

/** Webhook URLs often carry their secret in the path (Slack): only the origin is named. */
function redactedUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the webhook';
  }
}

/**
 * Watches runs' states and notifies on the ones worth it. `endsOnly`: the gates are answered by a
 * standing approval (`run --yes`), so nobody is needed until the end.
 */
export function runNotifications(notifier: WebhookNotifier, endsOnly = false): (state: CodingState) => void {
  const last = new Map<string, WorkflowNode>();
  return (state) => {
    const payload = notifyPayloadFor(state, last.get(state.stateId) ?? null);
    last.set(state.stateId, state.currentNode);
    if (payload && !(endsOnly && payload.event === 'needs_person')) notifier.notify(payload);
  };
}

/** The webhook from the flag or IRONBEES_NOTIFY_WEBHOOK; null when neither is set. */
export function notifierFromEnv(url: string | undefined, env: NodeJS.ProcessEnv, logger: Pick<Logger, 'warn'>): WebhookNotifier | null {
  const target = url ?? env.IRONBEES_NOTIFY_WEBHOOK?.trim();
  if (!target) return null;
  const secret = env.IRONBEES_NOTIFY_SECRET?.trim();
  return new WebhookNotifier({ url: target, logger, ...(secret ? { secret } : {}) });
}

/** The states as they come, each also shown to `onState` (the CLI's run). */
export async function* tapStates(
  states: AsyncIterable<CodingState>,
  onState: ((state: CodingState) => void) | null,
): AsyncIterable<CodingState> {
  for await (const state of states) {
    onState?.(state);
    yield state;
  }
}
