// What `activate()` returns. Any installed extension can read it (`getExtension(id).exports`), so
// the public API carries nothing secret and no way to act: no key, no secret store, no run or
// revert. The suites that run inside a real VS Code reach the live parts through the test hooks,
// which only the development build (`npm run build`) exports; `npm run package` compiles them out
// (esbuild `define` IRONBEES_TEST_HOOKS=false) and scripts/check-production-bundle.mjs checks that.

import type { IronbeesActions } from './actions';
import type { PanelBridge } from './panel-bridge';
import type { ReviewController } from './review/review-controller';
import type { ReviewComments } from './review-comments';
import type { RunController, RunControllerDeps } from './run-controller';
import type { RunStatusBar } from './status-bar';
import type { AgentViewProvider } from './webview/agent-view-provider';
import type { WorktreeRuns } from './worktree-run';

export interface IronbeesApi {
  /** Milliseconds the last `activate()` took. */
  readonly activationMs: number;
}

/** The property of the exports that holds the test hooks, in development builds only. */
export const TEST_HOOKS_KEY = '__ironbeesTestHooks';

export interface WorkspaceServices {
  controller: RunController;
  review: ReviewController;
  actions: IronbeesActions;
  statusBar: RunStatusBar;
  view: AgentViewProvider;
  /** Runs started in a git worktree of their own. */
  worktrees: WorktreeRuns;
  /** The dependencies the controller was built with (the secrets store, the settings, the folder). */
  controllerDeps: RunControllerDeps;
  /** What the panel's messages do (a suite sends one as the panel would). Additive. */
  bridge: PanelBridge;
  /** The code review's comment threads on the files (the Comments API). Additive. */
  reviewComments: ReviewComments;
}

/** Development builds only: what the suites inside a real VS Code need. */
export interface IronbeesTestHooks {
  /** Undefined when no folder is open; replaced by `reload()`. */
  workspace: WorkspaceServices | undefined;
  /** The extension's log folder (the "Ironbees" channel's file is under its parent). */
  logUri: string | undefined;
  /**
   * Deactivates and activates the extension again, as a window reload would (a live run is left
   * resumable, and unfinished runs are offered again). Resolves with the same exports, updated.
   */
  reload(): Promise<IronbeesApi>;
}

export type IronbeesTestExports = IronbeesApi & { [TEST_HOOKS_KEY]: IronbeesTestHooks };
