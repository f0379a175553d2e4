// The status bar item: `$(sync~spin) Ironbees 2/5 · Validating` while working, the outcome when
// done, and a click opens the Agent panel. Context keys for menus (`ironbees.busy`,
// `ironbees.running`, `ironbees.gate`) follow the same state.

import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import type { RunController } from './run-controller';
import { GATE_NODES, isWorking, statusIcon } from './status-text';

export class RunStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  /** `providerModel` says which provider and model runs use (the tooltip shows it). */
  constructor(
    private readonly controller: RunController,
    private readonly providerModel: () => string = () => '',
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('ironbees.status', vscode.StatusBarAlignment.Left, 50));
    this.item.name = 'Ironbees';
    this.item.command = 'ironbees.showPanel';
    this._register(controller.onDidChangeState(() => this.update()));
    this.update();
  }

  /** What the item shows now, without the icon (tests read it). */
  get text(): string {
    return this.controller.statusText;
  }

  /** The item's full text, icon included. */
  get renderedText(): string {
    return this.item.text;
  }

  private update(): void {
    const state = this.controller.state;
    // Only a live run spins; one that stopped mid-step (a window closed) waits to be resumed.
    const icon = this.controller.busy
      ? '$(sync~spin)'
      : isWorking(state) || this.controller.interrupted
        ? '$(debug-pause)'
        : statusIcon(state);
    this.item.text = `${icon} ${this.controller.statusText}`;
    const model = this.providerModel();
    const using = model ? `\nModel: ${model}` : '';
    this.item.tooltip = state
      ? `${state.userRequest}\n\nRun ${state.stateId}${using} · click to open the Ironbees panel`
      : `Ironbees: click to open the Agent panel${using}`;
    const needsPerson = state !== null && GATE_NODES.includes(state.currentNode);
    this.item.backgroundColor = needsPerson
      ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : state?.currentNode === 'FAILED'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : undefined;
    this.item.show();
    void vscode.commands.executeCommand('setContext', 'ironbees.busy', this.controller.busy);
    void vscode.commands.executeCommand('setContext', 'ironbees.running', this.controller.isLive);
    void vscode.commands.executeCommand('setContext', 'ironbees.gate', needsPerson ? state.currentNode : '');
  }
}
