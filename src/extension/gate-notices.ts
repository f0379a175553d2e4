// A notification when a run needs the person and the panel may be out of sight: the hand-off
// (Continue / Stop / open the panel) and a failure always; the plan and diff gates and the end of a
// run when the panel is hidden (Review plan / Review changes / Open hand-off), since then only the
// status bar would tell.

import * as vscode from 'vscode';
import type { CodingState, WorkflowNode } from '../core/model';
import type { IronbeesActions } from './actions';
import { Disposable } from './lifecycle';
import { escalationNotice } from './escalation-text';
import type { RunController } from './run-controller';

export class GateNotices extends Disposable {
  private lastNode: WorkflowNode | null = null;

  constructor(
    private readonly controller: RunController,
    private readonly actions: IronbeesActions,
    private readonly showPanel: () => Promise<void>,
    private readonly panelVisible: () => boolean = () => true,
  ) {
    super();
    // A choice made on a stale notification (the run moved on meanwhile) is an error message, not
    // an unhandled rejection in the extension host.
    this._register(
      controller.onDidChangeState((state) => {
        this.onState(state).catch(
          (error: unknown) => void vscode.window.showErrorMessage(`Ironbees: ${error instanceof Error ? error.message : String(error)}`),
        );
      }),
    );
  }

  private async onState(state: CodingState | null): Promise<void> {
    const node = state?.currentNode ?? null;
    if (!state || node === this.lastNode || !this.controller.isLive) {
      this.lastNode = node;
      return;
    }
    this.lastNode = node;
    if (node === 'WAIT_HUMAN') {
      const choice = await vscode.window.showWarningMessage(escalationNotice(state), 'Continue…', 'Stop', 'Open Panel');
      if (choice === 'Continue…') await this.actions.continueRun();
      if (choice === 'Stop') await this.actions.stopRun();
      if (choice === 'Open Panel') await this.showPanel();
    } else if (!this.panelVisible() && (node === 'WAIT_PLAN_APPROVAL' || node === 'WAIT_DIFF_APPROVAL')) {
      const action = node === 'WAIT_PLAN_APPROVAL' ? 'Review plan' : 'Review changes';
      const what = node === 'WAIT_PLAN_APPROVAL' ? 'a plan' : 'changes';
      const choice = await vscode.window.showInformationMessage(`Ironbees has ${what} for you to review.`, action);
      if (choice === action) await this.showPanel();
    } else if (!this.panelVisible() && (node === 'SUCCESS' || node === 'CANCELLED')) {
      const choice = await vscode.window.showInformationMessage(`Ironbees: the run ended ${node}.`, 'Open hand-off');
      if (choice === 'Open hand-off') await this.actions.openHandoff(state.stateId);
    } else if (node === 'FAILED') {
      const choice = await vscode.window.showErrorMessage(
        'Ironbees: the run failed with an error it could not recover from.',
        'Open Panel',
      );
      if (choice === 'Open Panel') await this.showPanel();
    }
  }
}
