// The extension's entry. Activation only wires things up: the core, the SDK and xstate load on the
// first run (run-controller.ts imports the runtime lazily), so activating costs milliseconds.
// Ironbees works on the first workspace folder (multi-root workspaces: the first one).

import * as vscode from 'vscode';
import { setSecretEnvironmentVariables } from '../core/platform/child-env';
import { setSandboxMode } from '../core/platform/sandbox';
import { errorMessage } from '../core/errors';
import { IronbeesActions } from './actions';
import { TEST_HOOKS_KEY } from './api';
import type { IronbeesApi, IronbeesTestHooks, WorkspaceServices } from './api';
import type { CommandHandlers } from './commands';
import { COMMAND_IDS, registerCommands } from './commands';
import { createLogChannel, loggerFor } from './log';
import { GateNotices } from './gate-notices';
import { WebhookNotices } from './webhook-notices';
import { PanelBridge } from './panel-bridge';
import { offerUnfinishedRuns } from './resume-offer';
import { ReviewController } from './review/review-controller';
import { ReviewComments } from './review-comments';
import { RecentRequests } from './run-agent';
import { RunController } from './run-controller';
import { editorWorkspaceTrust } from './workspace-trust';
import { RunChanges } from './review/run-changes';
import { CheckpointRestore } from './checkpoint-restore';
import type { RunControllerDeps } from './run-controller';
import { ProviderApiKeyStore } from './provider-keys';
import { providerModelText, readProviderSettings } from './provider-settings';
import { SETTINGS_SECTION, affectsIronbees, readSettings } from './settings';
import { RunStatusBar } from './status-bar';
import { chooseModel } from './model-picker';
import { AGENT_VIEW_ID, AgentViewProvider } from './webview/agent-view-provider';
import { applyWorktreeRun } from './worktree-apply';
import { WorktreeRuns, cleanWorktreeLeftovers } from './worktree-run';

/** Set by esbuild: true in `npm run build` (what the suites load), false in `npm run package`. */
declare const IRONBEES_TEST_HOOKS: boolean;

let services: WorkspaceServices | undefined;
let activeContext: vscode.ExtensionContext | undefined;
/** One object for the life of the extension host, so `extension.exports` still holds after `reload()`. */
const api: { activationMs: number } = { activationMs: 0 };
/** Compiled out of the packaged extension: another extension must not reach the key or start runs. */
let testHooks: IronbeesTestHooks | undefined;
if (IRONBEES_TEST_HOOKS) {
  testHooks = { workspace: undefined, logUri: undefined, reload: () => reload() };
  Object.assign(api, { [TEST_HOOKS_KEY]: testHooks });
}

export function activate(context: vscode.ExtensionContext): IronbeesApi {
  const startedAt = performance.now();
  activeContext = context;
  const channel = createLogChannel();
  context.subscriptions.push(channel);
  const logger = loggerFor(channel);
  // Keys per provider; the chosen provider is a user-scope setting, read when a key is needed.
  const apiKeys = new ProviderApiKeyStore(
    context.secrets,
    () => readProviderSettings((key) => vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key)).provider,
  );
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (testHooks) testHooks.logUri = context.logUri.fsPath;

  if (!folder) {
    const explain = (): void =>
      void vscode.window.showInformationMessage('Ironbees works on a .NET workspace: open a folder with a solution or project first.');
    const handlers = Object.fromEntries(
      COMMAND_IDS.map((id) => [id, id === 'ironbees.setApiKey' ? () => apiKeys.prompt() : explain]),
    ) as unknown as CommandHandlers;
    context.subscriptions.push(...registerCommands(handlers, (id, error) => logger.error(`${id}: ${errorMessage(error)}`)));
    api.activationMs = performance.now() - startedAt;
    if (testHooks) testHooks.workspace = undefined;
    return api;
  }

  const settings = (): ReturnType<typeof readSettings> => readSettings(folder.uri, (message) => logger.warn(message));
  // Read now (the names must be kept from the first child on) and again on every change below.
  setSecretEnvironmentVariables(settings().secretEnvironmentVariables);
  setSandboxMode(settings().sandbox);
  const trusted = (): Promise<boolean> =>
    editorWorkspaceTrust({
      workspaceRoot: folder.uri.fsPath,
      memento: context.globalState,
      logger,
      isTrusted: () => vscode.workspace.isTrusted,
      confirm: (message, detail, button) => vscode.window.showWarningMessage(message, { modal: true, detail }, button),
    });
  const controllerDeps: RunControllerDeps = {
    folder,
    extensionPath: context.extensionUri.fsPath,
    logger,
    apiKeys,
    settings,
    trusted,
    showEngineNotice: engineNoticeOnce(context.globalState),
  };
  const controller = new RunController(controllerDeps);
  const review = new ReviewController(controller, logger);
  const statusBar = new RunStatusBar(controller, () => {
    const current = settings();
    return current.demoModel ? 'the scripted demo model' : providerModelText(current.provider, current.model);
  });
  const actions: IronbeesActions = new IronbeesActions({
    controller,
    review,
    folder,
    apiKeys,
    recent: new RecentRequests(context.globalState),
    logger,
    // `view` is created below; this runs only later, when a command does.
    revealPanel: (preserveFocus: boolean): Promise<void> => view.reveal(preserveFocus),
    restoreCheckpoint: (runId, checkpoint) => checkpointRestore.restore(runId, checkpoint),
  });
  const checkpointRestore = new CheckpointRestore({ controller, workspaceRoot: folder.uri.fsPath, logger });
  context.subscriptions.push(checkpointRestore);
  const bridge: PanelBridge = new PanelBridge({ controller, review, apiKeys, settings, actions, logger });
  const view: AgentViewProvider = new AgentViewProvider(context.extensionUri, bridge, (message) => bridge.handle(message), logger);
  bridge.attach(view);
  const notices = new GateNotices(
    controller,
    actions,
    () => view.reveal(false),
    () => view.isVisible,
  );
  const runChanges = new RunChanges({
    store: () => controller.store,
    workspaceRoot: folder.uri.fsPath,
    currentRunId: () => controller.state?.stateId ?? null,
    reviewing: () => (review.review ? { runId: review.review.runId, files: review.review.filePaths } : null),
  });
  context.subscriptions.push(runChanges);
  const reviewComments = new ReviewComments({
    folder: folder.uri,
    state: () => controller.state,
    onDidChangeState: controller.onDidChangeState,
  });
  const webhooks = new WebhookNotices({
    onDidChangeState: controller.onDidChangeState,
    isLive: () => controller.isLive,
    webhookUrl: () => settings().notifyWebhook ?? '',
    env: process.env,
    logger,
  });
  context.subscriptions.push(controller, review, reviewComments, statusBar, bridge, view, notices, webhooks);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(AGENT_VIEW_ID, view));

  const applyRun = async (runId?: string, options?: { yes?: boolean; force?: boolean }): Promise<string[] | undefined> => {
    const id =
      runId ?? (await vscode.window.showInputBox({ title: 'Apply which worktree run?', prompt: 'Its run id (branch ironbees/<runId>)' }));
    return id ? applyWorktreeRun(folder.uri.fsPath, id.trim(), options) : undefined;
  };
  const worktrees = new WorktreeRuns({ controller, logger, apply: (runId) => applyRun(runId) });
  const handlers: CommandHandlers = {
    'ironbees.runAgent': (request, target) => actions.runAgent(request, target),
    'ironbees.runAgentInWorktree': (request, target) => actions.runAgent(request, target, (text, chosen) => worktrees.start(text, chosen)),
    'ironbees.applyWorktreeRun': (runId, options) => applyRun(runId, options),
    'ironbees.approvePlan': () => actions.approvePlan(),
    'ironbees.rejectPlan': (feedback) => actions.rejectPlan(feedback),
    'ironbees.compareWithOriginal': async (ref) => {
      const filePath =
        review.resolveFile(ref) ??
        (await vscode.window.showQuickPick(review.review?.filePaths ?? [], { title: 'Compare which file with the original?' }));
      if (filePath) await runChanges.compareWithOriginal(filePath);
    },
    'ironbees.showRunChanges': (runId) => runChanges.showRunChanges(runId),
    'ironbees.cancelRun': (options) => actions.cancelRun({ confirm: options?.confirm !== false }),
    'ironbees.resumeRun': (runId) => actions.resumeRun(runId),
    'ironbees.revertRun': (runId) => actions.revertRun(runId),
    'ironbees.showHistory': () => actions.showHistory(),
    'ironbees.setApiKey': () => actions.setApiKey(),
    'ironbees.acceptFile': (ref) => actions.acceptFile(ref),
    'ironbees.rejectFile': (ref, reason) => actions.rejectFile(ref, reason),
    'ironbees.acceptHunk': (ref) => actions.acceptHunk(ref),
    'ironbees.rejectHunk': (ref, reason) => actions.rejectHunk(ref, reason),
    'ironbees.submitReview': () => actions.submitReview(),
    'ironbees.acceptAll': () => review.acceptAll(),
    'ironbees.rejectAll': (feedback) => actions.rejectAll(feedback),
    'ironbees.nextHunk': () => review.goToNextHunk(),
    'ironbees.showPanel': () => view.reveal(false),
    'ironbees.openRunView': () => view.openInEditor(),
    'ironbees.chooseModel': () => {
      const now = settings();
      return chooseModel({ demoModel: now.demoModel, provider: now.provider, model: now.model });
    },
  };
  context.subscriptions.push(
    ...registerCommands(handlers, (id, error) => {
      const message = errorMessage(error);
      logger.error(`${id}: ${message}`);
      void vscode.window.showErrorMessage(`Ironbees: ${message}`);
    }),
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!affectsIronbees(event)) return;
      setSecretEnvironmentVariables(settings().secretEnvironmentVariables);
      setSandboxMode(settings().sandbox);
      controller.invalidateRuntime();
      void bridge.settingsChanged();
    }),
    apiKeys.onDidChange(() => {
      controller.invalidateRuntime();
      void bridge.settingsChanged();
    }),
    controller.onDidReport((report) => {
      if (report.kind === 'error') void vscode.window.showErrorMessage(`Ironbees: ${report.message}`);
    }),
  );

  services = { controller, review, actions, statusBar, view, worktrees, controllerDeps, bridge, reviewComments };
  // Not awaited: activation must not wait for the disk, and the offer waits for the person.
  void controller.restoreLatest();
  void cleanWorktreeLeftovers(folder.uri.fsPath, logger).catch((error: unknown) =>
    logger.warn(`Cleaning up after worktree runs: ${errorMessage(error)}`),
  );
  void offerUnfinishedRuns(controller, (runId) => actions.resumeRun(runId), logger);
  const activationMs = performance.now() - startedAt;
  logger.info(`Activated in ${activationMs.toFixed(1)} ms for ${folder.uri.fsPath}`);
  api.activationMs = activationMs;
  if (testHooks) testHooks.workspace = services;
  return api;
}

/** A run in flight stops without a transition: it is persisted and offered for resume next time. */
export async function deactivate(): Promise<void> {
  await services?.controller.shutdown();
  services = undefined;
  if (testHooks) testHooks.workspace = undefined;
}

/**
 * What a window reload does to the extension, without reloading the window: `deactivate()`, the
 * disposal of everything activation registered (VS Code's part on a real reload), then
 * `activate()` on the same context. The suites test resume-after-reload through it.
 */
async function reload(): Promise<IronbeesApi> {
  const context = activeContext;
  if (!context) throw new Error('Ironbees is not active.');
  // VS Code resolves a view pane once: a provider registered again is not asked for the view it
  // already shows. A real window reload builds the pane anew; here the new provider takes it over.
  const sidebar = services?.view.sidebarView;
  await deactivate();
  for (const disposable of context.subscriptions.splice(0).reverse()) {
    try {
      disposable.dispose();
    } catch {
      // One failing disposal must not keep the rest registered (the commands would clash).
    }
  }
  const reactivated = activate(context);
  if (sidebar && services) services.view.resolveWebviewView(sidebar);
  return reactivated;
}

const ENGINE_NOTICE_SHOWN = 'ironbees.engineNoticeShown';

/** "No C# language server" is news once: later windows log it (the output channel) without a toast. */
function engineNoticeOnce(state: vscode.Memento): (message: string) => void {
  return (message) => {
    if (state.get<boolean>(ENGINE_NOTICE_SHOWN)) return;
    void state.update(ENGINE_NOTICE_SHOWN, true);
    void vscode.window.showInformationMessage(message);
  };
}
