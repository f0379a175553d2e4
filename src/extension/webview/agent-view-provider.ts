// The "Agent" webview view. It posts nothing before the webview says `ready` (the panel may be
// hidden, reloaded or not yet loaded), then the whole picture: state, review, history, settings;
// what changes while that picture is gathered follows it (ready-gate.ts).
// Every incoming message is validated against the shared schema; a bad one is logged and answered
// with an error, never acted on. The panel keeps no state of its own worth saving: when it is
// hidden and shown again, or the window reloads, it asks again and gets it from the controller.

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Logger } from '../../core/host';
import { errorMessage } from '../../core/errors';
import type { ExtensionMessage, WebviewMessage } from '../../shared/protocol';
import { Disposable } from '../lifecycle';
import { renderWebviewHtml } from './html';
import { ReadyGate } from './ready-gate';

export const AGENT_VIEW_ID = 'ironbees.agent';

/** What the panel shows, gathered on demand: the provider has no copy to go stale. */
export interface PanelSource {
  snapshot(): Promise<ExtensionMessage[]>;
}

export type WebviewMessageHandler = (message: WebviewMessage) => Promise<void>;

export class AgentViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** Posts reach the page only after its `ready` and the snapshot that answers it. */
  private readonly gate = new ReadyGate<ExtensionMessage>((message) => this.send(message));
  private readonly _onDidReceiveMessage = this._register(new vscode.EventEmitter<WebviewMessage>());
  /** Every valid message from the webview (tests watch it). */
  readonly onDidReceiveMessage: vscode.Event<WebviewMessage> = this._onDidReceiveMessage.event;
  private readonly _onDidBecomeReady = this._register(new vscode.EventEmitter<void>());
  readonly onDidBecomeReady: vscode.Event<void> = this._onDidBecomeReady.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: PanelSource,
    private readonly handle: WebviewMessageHandler,
    private readonly logger: Logger,
  ) {
    super();
  }

  get isReady(): boolean {
    return this.gate.isOpen;
  }

  /** Whether the person can see the panel now (a notification stands in for it when not). */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.gate.close();
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    const asset = (name: string): vscode.Uri => view.webview.asWebviewUri(vscode.Uri.joinPath(root, name));
    view.webview.html = renderWebviewHtml(view.webview.cspSource, {
      script: asset('main.js'),
      styles: [asset('codicon.css'), asset('main.css')],
      bundlePresent: fs.existsSync(vscode.Uri.joinPath(root, 'main.js').fsPath),
    });
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      // Hidden without retainContextWhenHidden, the page is dropped: it sends `ready` again when shown.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.gate.close();
      }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.view === view) {
        this.view = undefined;
        this.gate.close();
      }
    });
    // Disposed with the extension while the page lives on (deactivated without a window reload):
    // the page must not keep driving a disposed instance.
    this._register({ dispose: () => subscriptions.forEach((s) => s.dispose()) });
  }

  /** Posts when the webview is ready; otherwise drops it (the webview asks for everything on `ready`). */
  post(message: ExtensionMessage): void {
    this.gate.post(message);
  }

  private send(message: ExtensionMessage): void {
    void this.view?.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Shows the view without taking the focus; opens its container first if it was never shown. */
  async reveal(preserveFocus = true): Promise<void> {
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${AGENT_VIEW_ID}.focus`);
  }

  private async receive(raw: unknown): Promise<void> {
    // The schema (zod) loads with the first message, not at activation.
    const { webviewMessageSchema } = await import('../heavy.js');
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const kind = typeof raw === 'object' && raw !== null ? String((raw as { type?: unknown }).type) : typeof raw;
      this.logger.warn(
        `Ignored a malformed message from the panel (${kind}): ${parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}`,
      );
      this.post({ type: 'error', message: `The panel sent a message the extension does not understand (${kind}).` });
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      const opened = await this.gate
        .open(() => this.source.snapshot())
        .catch((error: unknown) => {
          this.logger.error(`Could not gather what the panel shows: ${errorMessage(error)}`);
          this.post({ type: 'error', message: `The panel could not load the run: ${errorMessage(error)}` });
          return true;
        });
      // A newer `ready` (the page reloaded again) answers for this one.
      if (opened) this._onDidBecomeReady.fire();
    }
    this._onDidReceiveMessage.fire(message);
    try {
      await this.handle(message);
    } catch (error) {
      this.logger.error(`Panel action ${message.type} failed: ${errorMessage(error)}`);
      this.post({ type: 'error', message: errorMessage(error) });
    }
  }
}
