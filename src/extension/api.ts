// What `activate()` returns: the live parts of the extension, for the suites that run inside a
// real VS Code (and for anyone automating Ironbees). Types only; no behaviour lives here.

import type { IronbeesActions } from './actions';
import type { ReviewController } from './review/review-controller';
import type { RunController, RunControllerDeps } from './run-controller';
import type { RunStatusBar } from './status-bar';
import type { AgentViewProvider } from './webview/agent-view-provider';

export interface WorkspaceServices {
  controller: RunController;
  review: ReviewController;
  actions: IronbeesActions;
  statusBar: RunStatusBar;
  view: AgentViewProvider;
  /** The dependencies the controller was built with (the secrets store, the settings, the folder). */
  controllerDeps: RunControllerDeps;
}

export interface IronbeesApi {
  /** Milliseconds the last `activate()` took. */
  activationMs: number;
  /** Undefined when no folder is open; replaced by `reload()`. */
  workspace: WorkspaceServices | undefined;
  /**
   * Deactivates and activates the extension again, as a window reload would (a live run is left
   * resumable, and unfinished runs are offered again). Resolves with this same object, updated.
   */
  reload(): Promise<IronbeesApi>;
}
