// Connects the Agent panel to the rest: what it is sent (the full picture on `ready`, then every
// change) and what its messages do. Messages have been validated by the view provider already;
// an answer meant for another run than the current one (a stale panel) is refused here.

import type { Logger } from '../core/host';
import { redactDeep } from '../core/redact';
import type { CheckpointSummary } from '../core/runtime/faces';
import type { ExtensionMessage, PanelCheckpoint, WebviewMessage, WebviewMessageType } from '../shared/protocol';
import type { IronbeesActions } from './actions';
import { Disposable } from './lifecycle';
import { modelInfoMessage, nextRunModelText } from './model-info';
import { apiKeyStatusText } from './provider-settings';
import type { ReviewController } from './review/review-controller';
import type { RunController } from './run-controller';
import type { ApiKeyStore } from './secrets';
import type { IronbeesSettings } from './settings';
import type { AgentViewProvider } from './webview/agent-view-provider';
import { stepTurnsMessage } from './step-turns';
import { ActivityFeed } from './activity-feed';

export interface PanelBridgeDeps {
  controller: RunController;
  review: ReviewController;
  actions: IronbeesActions;
  apiKeys: ApiKeyStore;
  settings: () => IronbeesSettings;
  logger: Logger;
}

/**
 * Which messages answer the run the panel shows, and so must name the current run. Every message
 * type is listed, so a new one cannot slip past this check unnoticed. Resume, revert and open diff
 * name their run on purpose (any run of the history).
 */
const ANSWERS_CURRENT_RUN: Record<WebviewMessageType, boolean> = {
  ready: false,
  startRun: false,
  approvePlan: true,
  rejectPlan: true,
  openDiff: false,
  setFileDecision: true,
  setHunkDecision: true,
  submitReview: true,
  rejectDiffs: true,
  continueRun: true,
  stopRun: true,
  cancelRun: true,
  resumeRun: false,
  revertRun: false,
  openFile: false,
  refreshHistory: false,
  showStepTurns: false,
  openHandoff: false,
  chooseModel: false,
  restoreCheckpoint: false,
};

/** Why a panel message must not be acted on (it answers another run than the current one), or null. */
export function staleRunProblem(message: WebviewMessage, currentRunId: string | null): string | null {
  if (!ANSWERS_CURRENT_RUN[message.type] || !('runId' in message) || message.runId === currentRunId) return null;
  const now = currentRunId ? `the current run is ${currentRunId}` : 'there is no current run';
  return `The panel answered run ${message.runId} (${message.type}), but ${now}: nothing was done. The panel was out of date and has been refreshed.`;
}

export class PanelBridge extends Disposable {
  private view: AgentViewProvider | null = null;
  /** History reads can finish out of order: only the newest one is posted. */
  private historyRequests = 0;
  private readonly activity = new ActivityFeed((message) => this.post(message));
  /** Checkpoint reads can finish out of order too: only the newest one is posted. */
  private checkpointRequests = 0;

  constructor(private readonly deps: PanelBridgeDeps) {
    super();
  }

  attach(view: AgentViewProvider): void {
    this.view = view;
    const { controller, review } = this.deps;
    this._register(
      controller.onDidChangeState((state) => {
        this.activity.onState(state);
        this.post(this.stateMessage());
        void this.postCheckpoints();
      }),
    );
    this._register(controller.onDidChangeState(() => this.post(this.modelInfo())));
    this._register(controller.onDidActivity((event) => this.activity.onEvent(event)));
    this._register(review.onDidChangeReview((change) => this.post({ type: 'review', runId: change.runId, files: change.files })));
    this._register(controller.onDidChangeHistory(() => void this.postHistory()));
    this._register(controller.onDidReport((report) => this.post({ type: report.kind, message: report.message })));
  }

  /** Settings or the key changed. */
  async settingsChanged(): Promise<void> {
    this.post(await this.settingsMessage());
    this.post(this.modelInfo());
  }

  /** Everything the panel shows, for a panel that just said `ready`. */
  async snapshot(): Promise<ExtensionMessage[]> {
    await this.deps.controller.restoreLatest();
    const messages: ExtensionMessage[] = [await this.settingsMessage(), this.stateMessage(), this.modelInfo(), await this.historyMessage()];
    const activity = this.activity.snapshot();
    if (activity) messages.push(activity);
    const checkpoints = await this.checkpointsMessage();
    if (checkpoints) messages.push(checkpoints);
    const current = this.deps.review.review;
    if (current) messages.push({ type: 'review', runId: current.runId, files: current.toFileReviews() });
    return messages;
  }

  async handle(message: WebviewMessage): Promise<void> {
    const { actions } = this.deps;
    const stale = staleRunProblem(message, this.deps.controller.state?.stateId ?? null);
    if (stale) {
      this.deps.logger.warn(stale);
      this.post({ type: 'notice', message: stale });
      this.post(this.stateMessage());
      const current = this.deps.review.review;
      if (current) this.post({ type: 'review', runId: current.runId, files: current.toFileReviews() });
      return;
    }
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
      case 'setHunkDecision':
        await this.deps.review.setHunk(message.filePath, message.hunk, message.accepted, message.reason);
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
        await actions.revertRun(message.runId, { confirm: true });
        await this.postHistory();
        return;
      case 'openFile':
        await actions.openFile(message.filePath, message.line, message.column);
        return;
      case 'refreshHistory':
        await this.postHistory();
        return;
      case 'chooseModel':
        await actions.chooseModel();
        return;
      case 'showStepTurns':
        this.post(await stepTurnsMessage(this.deps.controller.store, message.runId, message.node));
        return;
      case 'openHandoff':
        await actions.openHandoff(message.runId);
        return;
      case 'restoreCheckpoint':
        await actions.restoreCheckpoint(message.runId, message.checkpoint);
        return;
    }
  }

  private post(message: ExtensionMessage): void {
    // The panel is the person's screen: no secret value reaches it, whatever a message carries.
    this.view?.post(redactDeep(message));
  }

  private stateMessage(): ExtensionMessage {
    const { controller } = this.deps;
    return {
      type: 'state',
      run: controller.state,
      busy: controller.busy,
      statusText: controller.statusText,
      interrupted: controller.interrupted,
    };
  }

  private modelInfo(): ExtensionMessage {
    return modelInfoMessage(this.deps.controller.state, this.deps.settings());
  }

  private async postHistory(): Promise<void> {
    const request = ++this.historyRequests;
    const message = await this.historyMessage();
    if (request === this.historyRequests) this.post(message);
  }

  private async postCheckpoints(): Promise<void> {
    const request = ++this.checkpointRequests;
    const message = await this.checkpointsMessage();
    if (message && request === this.checkpointRequests) this.post(message);
  }

  /** The checkpoints of the run shown, as plain data; null when no run is shown or its list cannot be read. */
  private async checkpointsMessage(): Promise<ExtensionMessage | null> {
    const { controller } = this.deps;
    const runId = controller.state?.stateId;
    if (!runId) return null;
    // An unreadable list never keeps the panel from loading: no Restore here is offered, that is all.
    const list = await Promise.resolve()
      .then(() => controller.store.checkpoints.list(runId))
      .catch((error: unknown) => {
        this.deps.logger.warn(`Reading the checkpoints of run ${runId}: ${String(error)}`);
        return null;
      });
    return list ? { type: 'checkpoints', runId, checkpoints: list.map(panelCheckpoint) } : null;
  }

  private async historyMessage(): Promise<ExtensionMessage> {
    return { type: 'history', runs: await this.deps.controller.history().catch(() => []) };
  }

  private async settingsMessage(): Promise<ExtensionMessage> {
    const settings = this.deps.settings();
    const hasKey = settings.demoModel || (await this.deps.apiKeys.has());
    return {
      type: 'settings',
      maxIterations: settings.maxIterations,
      model: nextRunModelText(settings),
      hasApiKey: hasKey,
      keyStatus: apiKeyStatusText(settings.provider, hasKey, settings.demoModel),
    };
  }
}

/** The fields the panel shows of a checkpoint, copied (nothing else of the index reaches the webview). */
export function panelCheckpoint(c: CheckpointSummary): PanelCheckpoint {
  return {
    id: c.id,
    label: c.label,
    kind: c.kind,
    node: c.node,
    iteration: c.iteration,
    tests: { total: c.tests.total, passed: c.tests.passed, failed: c.tests.failed },
    green: c.green,
  };
}
