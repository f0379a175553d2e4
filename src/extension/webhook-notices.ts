// The editor's runs send the same signed webhooks as `ironbees run --notify-webhook` (notify.ts):
// needs_person when a followed run reaches a gate, run_ended when it ends. The URL is the person-only
// `ironbees.notify.webhook` setting, read at each state (a change applies to the next event); the
// secret is the extension host's IRONBEES_NOTIFY_SECRET. Delivery happens in the background: a slow
// or dead receiver never holds a run up. A run shown from disk (after a reload) posts nothing.

import type * as vscode from 'vscode';
import type { CodingState, WorkflowNode } from '../core/model';
import type { Logger } from '../core/host';
import { WebhookNotifier, notifyPayloadFor } from '../core/runtime/notify';
import { Disposable } from './lifecycle';

export interface WebhookNoticesDeps {
  /** The controller's states, and whether the run they belong to is followed live here. */
  onDidChangeState: vscode.Event<CodingState | null>;
  isLive: () => boolean;
  /** The setting's value ('' = off). */
  webhookUrl: () => string;
  env: NodeJS.ProcessEnv;
  logger: Pick<Logger, 'warn'>;
  /** Retry pacing, for tests; the notifier's defaults otherwise. */
  retry?: { attempts?: number; backoffMs?: number };
}

export class WebhookNotices extends Disposable {
  private readonly lastNode = new Map<string, WorkflowNode>();
  private notifier: { url: string; secret: string; sender: WebhookNotifier } | null = null;
  private readonly refused = new Set<string>();

  constructor(private readonly deps: WebhookNoticesDeps) {
    super();
    this._register(deps.onDidChangeState((state) => this.onState(state)));
  }

  /** Resolves once every notification sent so far was delivered or given up (tests). */
  async settled(): Promise<void> {
    await this.notifier?.sender.settled();
  }

  private onState(state: CodingState | null): void {
    if (!state) return;
    const previous = this.lastNode.get(state.stateId) ?? null;
    this.lastNode.set(state.stateId, state.currentNode);
    if (!this.deps.isLive()) return;
    const payload = notifyPayloadFor(state, previous);
    if (!payload) return;
    this.sender()?.notify(payload);
  }

  /** The notifier for the current URL and secret; null when notifications are off or the URL is not http(s). */
  private sender(): WebhookNotifier | null {
    const url = this.deps.webhookUrl().trim();
    if (!url) return null;
    if (!isHttpUrl(url)) {
      if (!this.refused.has(url)) {
        this.refused.add(url);
        this.deps.logger.warn('Ignoring ironbees.notify.webhook: it is not an http(s) URL.');
      }
      return null;
    }
    const secret = this.deps.env.IRONBEES_NOTIFY_SECRET?.trim() ?? '';
    if (this.notifier?.url !== url || this.notifier.secret !== secret) {
      const sender = new WebhookNotifier({ url, logger: this.deps.logger, ...(secret ? { secret } : {}), ...this.deps.retry });
      this.notifier = { url, secret, sender };
    }
    return this.notifier.sender;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
