// Lifecycle discipline (vscode-pull-request-github's `common/lifecycle.ts`): everything a component
// registers is disposed with it, and events come in `_onDidX` / `onDidX` pairs.

import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.disposables.push(disposable);
    }
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Last registered, first disposed: later registrations may depend on earlier ones.
    for (const disposable of this.disposables.splice(0).reverse()) {
      try {
        disposable.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}
