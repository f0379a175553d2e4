// The "Agent" webview view in the sidebar, and the same panel opened full width in the editor area
// ("Open Run in Editor"): one page, two surfaces, each sent the same messages. A surface is posted
// nothing before its page says `ready` (it may be hidden, reloaded or not yet loaded), then the whole
// picture: state, review, history, settings; what changes while that picture is gathered follows it
// (ready-gate.ts).
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
/** The full-width panel's webview type (an editor tab). */
export const RUN_EDITOR_VIEW_TYPE = 'ironbees.run';

/** What the panel shows, gathered on demand: the provider has no copy to go stale. */
export interface PanelSource {
  snapshot(): Promise<ExtensionMessage[]>;
}

export type WebviewMessageHandler = (message: WebviewMessage) => Promise<void>;

/** One place the page is shown, with its own gate: posts reach it only after its `ready`. */
interface Surface {
  webview: vscode.Webview;
  gate: ReadyGate<ExtensionMessage>;
}

export class AgentViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private sidebar: Surface | undefined;
  private editorPanel: vscode.WebviewPanel | undefined;
  private readonly surfaces = new Set<Surface>();
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

  /** The sidebar's page said `ready` and has the picture. */
  get isReady(): boolean {
    return this.sidebar?.gate.isOpen ?? false;
  }

  /** The full-width panel is open and its page has the picture. */
  get isEditorPanelReady(): boolean {
    const panel = this.editorPanel;
    return !!panel && [...this.surfaces].some((surface) => surface.webview === panel.webview && surface.gate.isOpen);
  }

  /** The sidebar view this provider resolved, if any (a re-activation hands it to the new provider). */
  get sidebarView(): vscode.WebviewView | undefined {
    return this.view;
  }

  /** Whether the person can see the panel now (a notification stands in for it when not). */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const surface = this.attach(view.webview, view.onDidDispose, () => {
      if (this.view === view) {
        this.view = undefined;
        this.sidebar = undefined;
      }
    });
    this.sidebar = surface;
    // Hidden without retainContextWhenHidden, the page is dropped: it sends `ready` again when shown.
    const visibility = view.onDidChangeVisibility(() => {
      if (!view.visible) surface.gate.close();
    });
    view.onDidDispose(() => visibility.dispose());
    this._register(visibility);
  }

  /** Opens (or shows) the run full width in the editor area, beside the sidebar summary. */
  openInEditor(): void {
    if (this.editorPanel) {
      this.editorPanel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(RUN_EDITOR_VIEW_TYPE, 'Ironbees Run', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [this.webviewRoot()],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'ironbees.svg');
    this.editorPanel = panel;
    const surface = this.attach(panel.webview, panel.onDidDispose, () => {
      if (this.editorPanel === panel) this.editorPanel = undefined;
    });
    // A panel moved to the background keeps its page only while visible: it says `ready` again.
    const state = panel.onDidChangeViewState(() => {
      if (!panel.visible) surface.gate.close();
    });
    panel.onDidDispose(() => state.dispose());
    this._register({ dispose: () => panel.dispose() });
  }

  private webviewRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>, forget: () => void): Surface {
    const surface: Surface = { webview, gate: new ReadyGate<ExtensionMessage>((message) => this.send(webview, message)) };
    this.surfaces.add(surface);
    const root = this.webviewRoot();
    webview.options = { enableScripts: true, localResourceRoots: [root] };
    const asset = (name: string): vscode.Uri => webview.asWebviewUri(vscode.Uri.joinPath(root, name));
    webview.html = renderWebviewHtml(webview.cspSource, {
      script: asset('main.js'),
      styles: [asset('codicon.css'), asset('main.css')],
      bundlePresent: fs.existsSync(vscode.Uri.joinPath(root, 'main.js').fsPath),
    });
    const received = webview.onDidReceiveMessage((raw: unknown) => void this.receive(surface, raw));
    onDidDispose(() => {
      received.dispose();
      surface.gate.close();
      this.surfaces.delete(surface);
      forget();
    });
    // Disposed with the extension while the page lives on (deactivated without a window reload):
    // the page must not keep driving a disposed instance.
    this._register(received);
    return surface;
  }

  /** Posts to every surface whose page is ready; the others ask for everything on `ready`. */
  post(message: ExtensionMessage): void {
    for (const surface of this.surfaces) surface.gate.post(message);
  }

  private send(webview: vscode.Webview, message: ExtensionMessage): void {
    void webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Shows the view without taking the focus; opens its container first if it was never shown. */
  async reveal(preserveFocus = true): Promise<void> {
    if (this.view && preserveFocus) {
      this.view.show(true);
      return;
    }
    // With the focus: the view's own command, which also opens a closed side bar.
    await vscode.commands.executeCommand(`${AGENT_VIEW_ID}.focus`);
  }

  private async receive(surface: Surface, raw: unknown): Promise<void> {
    // The schema (zod) loads with the first message, not at activation.
    const { webviewMessageSchema } = await import('../heavy.js');
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const kind = typeof raw === 'object' && raw !== null ? String((raw as { type?: unknown }).type) : typeof raw;
      this.logger.warn(
        `Ignored a malformed message from the panel (${kind}): ${parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}`,
      );
      surface.gate.post({ type: 'error', message: `The panel sent a message the extension does not understand (${kind}).` });
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      const opened = await surface.gate
        .open(() => this.source.snapshot())
        .catch((error: unknown) => {
          this.logger.error(`Could not gather what the panel shows: ${errorMessage(error)}`);
          surface.gate.post({ type: 'error', message: `The panel could not load the run: ${errorMessage(error)}` });
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
      surface.gate.post({ type: 'error', message: errorMessage(error) });
    }
  }
}
