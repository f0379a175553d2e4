// Cancellable progress while a run works on its own (baseline, planning, coding, validating):
// one notification per stretch of work, following the step, with Cancel wired to the run's cancel.
// It closes when the run waits for the person or ends.

import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import type { RunController } from './run-controller';
import { nodeLabel } from './status-text';

export class RunProgress extends Disposable {
  private reporter: { report(message: string): void; done(): void } | null = null;

  constructor(
    private readonly controller: RunController,
    private readonly onCancel: () => Promise<void>,
  ) {
    super();
    this._register(controller.onDidChangeState(() => this.update()));
    this._register({ dispose: () => this.reporter?.done() });
  }

  private update(): void {
    const state = this.controller.state;
    if (!this.controller.busy || !state) {
      this.reporter?.done();
      this.reporter = null;
      return;
    }
    const message = `${nodeLabel(state.currentNode)}${state.iterationCount > 0 ? ` (iteration ${state.iterationCount}/${state.maxIterations})` : ''}`;
    if (this.reporter) {
      this.reporter.report(message);
      return;
    }
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let progress: vscode.Progress<{ message?: string }> | null = null;
    let latest = message;
    this.reporter = {
      report: (text) => {
        latest = text;
        progress?.report({ message: text });
      },
      done: () => finish(),
    };
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Ironbees', cancellable: true },
      (p, token) => {
        progress = p;
        p.report({ message: latest });
        token.onCancellationRequested(() => void this.onCancel());
        return finished;
      },
    );
  }
}
