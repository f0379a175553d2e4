// Connects the Agent panel to the rest: what it is sent (the full picture on `ready`, then every
// change) and what its messages do. Messages have been validated by the view provider already.

import type { ExtensionMessage, WebviewMessage } from '../shared/protocol';
import type { IronbeesActions } from './actions';
import { Disposable } from './lifecycle';
import type { ReviewController } from './review/review-controller';
import type { RunController } from './run-controller';
import type { ApiKeyStore } from './secrets';
import type { IronbeesSettings } from './settings';
import type { AgentViewProvider } from './webview/agent-view-provider';

export interface PanelBridgeDeps {
  controller: RunController;
  review: ReviewController;
  actions: IronbeesActions;
  apiKeys: ApiKeyStore;
  settings: () => IronbeesSettings;
}

export class PanelBridge extends Disposable {
  private view: AgentViewProvider | null = null;

  constructor(private readonly deps: PanelBridgeDeps) {
    super();
  }

  attach(view: AgentViewProvider): void {
    this.view = view;
    const { controller, review } = this.deps;
    this._register(controller.onDidChangeState(() => this.post(this.stateMessage())));
    this._register(review.onDidChangeReview((change) => this.post({ type: 'review', runId: change.runId, files: change.files })));
    this._register(controller.onDidChangeHistory(() => void this.historyMessage().then((m) => this.post(m))));
    this._register(controller.onDidReport((report) => this.post({ type: report.kind, message: report.message })));
  }

  /** Settings or the key changed. */
  async settingsChanged(): Promise<void> {
    this.post(await this.settingsMessage());
  }

  /** Everything the panel shows, for a panel that just said `ready`. */
  async snapshot(): Promise<ExtensionMessage[]> {
    await this.deps.controller.restoreLatest();
    const messages: ExtensionMessage[] = [await this.settingsMessage(), this.stateMessage(), await this.historyMessage()];
    const current = this.deps.review.review;
    if (current) messages.push({ type: 'review', runId: current.runId, files: current.toFileReviews() });
    return messages;
  }

  async handle(message: WebviewMessage): Promise<void> {
    const { actions } = this.deps;
    switch (message.type) {
      case 'ready':
        return;
      case 'startRun':
        await actions.runAgent(message.request);
        return;
      case 'approvePlan':
        await actions.approvePlan(message.editedPlan);
        return;
      case 'rejectPlan':
        await actions.rejectPlan(message.feedback);
        return;
      case 'openDiff':
        await this.deps.review.openDiff(message.filePath, message.runId);
        return;
      case 'setFileDecision':
        await this.deps.review.setFile(message.filePath, message.accepted, message.reason);
        return;
      case 'submitReview':
        await actions.submitReview();
        return;
      case 'rejectDiffs':
        await actions.rejectDiffs(message.feedback);
        return;
      case 'continueRun':
        await actions.continueRun(message.guidance, message.additionalIterations);
        return;
      case 'stopRun':
        await actions.stopRun();
        return;
      case 'cancelRun':
        await actions.cancelRun();
        return;
      case 'resumeRun':
        await actions.resumeRun(message.runId);
        return;
      case 'revertRun':
        await actions.revertRun(message.runId);
        this.post(await this.historyMessage());
        return;
      case 'openFile':
        await actions.openFile(message.filePath, message.line, message.column);
        return;
      case 'refreshHistory':
        this.post(await this.historyMessage());
        return;
    }
  }

  private post(message: ExtensionMessage): void {
    this.view?.post(message);
  }

  private stateMessage(): ExtensionMessage {
    const { controller } = this.deps;
    return { type: 'state', run: controller.state, busy: controller.busy, statusText: controller.statusText };
  }

  private async historyMessage(): Promise<ExtensionMessage> {
    return { type: 'history', runs: await this.deps.controller.history().catch(() => []) };
  }

  private async settingsMessage(): Promise<ExtensionMessage> {
    const settings = this.deps.settings();
    return {
      type: 'settings',
      maxIterations: settings.maxIterations,
      model: settings.demoModel ? 'scripted demo model' : settings.model || 'agent default',
      hasApiKey: settings.demoModel || (await this.deps.apiKeys.has()),
    };
  }
}

