// The typed command map (xstate-tools' `typeSafeVsCode.ts`): each command id with the arguments it
// takes, so registering and executing a command cannot disagree on its shape. The ids and titles
// are also in package.json `contributes.commands`.

import * as vscode from 'vscode';

export interface HunkRef {
  runId: string;
  filePath: string;
  hunk: number;
}

export interface FileRef {
  runId?: string;
  filePath?: string;
}

/** Command id → its argument list. */
export interface IronbeesCommands {
  'ironbees.runAgent': [request?: string, target?: string];
  /** The same run in a git worktree of its own, on branch `ironbees/<runId>` (worktree-run.ts). */
  'ironbees.runAgentInWorktree': [request?: string, target?: string];
  /** A worktree run's branch into the working tree, per file (worktree-apply.ts); `yes` applies all. */
  'ironbees.applyWorktreeRun': [runId?: string, options?: { yes?: boolean; force?: boolean }];
  'ironbees.approvePlan': [];
  'ironbees.rejectPlan': [feedback?: string];
  /** `{ confirm: false }` (scripts, tests) cancels without the confirmation a person's click gets. */
  'ironbees.cancelRun': [options?: { confirm?: boolean }];
  'ironbees.resumeRun': [runId?: string];
  'ironbees.revertRun': [runId?: string];
  'ironbees.showHistory': [];
  'ironbees.setApiKey': [];
  /** From the diff editor's title: the proposed document's URI; from the palette: nothing. */
  'ironbees.acceptFile': [ref?: FileRef | vscode.Uri];
  'ironbees.rejectFile': [ref?: FileRef | vscode.Uri, reason?: string];
  'ironbees.acceptHunk': [ref?: HunkRef];
  'ironbees.rejectHunk': [ref?: HunkRef, reason?: string];
  'ironbees.submitReview': [];
  'ironbees.acceptAll': [];
  'ironbees.rejectAll': [feedback?: string];
  'ironbees.nextHunk': [];
  'ironbees.showPanel': [];
  /** The panel full width in the editor area, beside the sidebar summary. */
  'ironbees.openRunView': [];
  /** A provider (or the demo model) and the model name for the next run, into the person's settings. */
  'ironbees.chooseModel': [];
  /** A file before the run ↔ the proposal under review (or the file now); from a diff's title: its URI. */
  'ironbees.compareWithOriginal': [ref?: FileRef | vscode.Uri];
  /** Every file the run changed against the files before it, in one editor (the current run when not given). */
  'ironbees.showRunChanges': [runId?: string];
}

export type IronbeesCommandId = keyof IronbeesCommands;

export const COMMAND_IDS: readonly IronbeesCommandId[] = [
  'ironbees.runAgent',
  'ironbees.runAgentInWorktree',
  'ironbees.applyWorktreeRun',
  'ironbees.approvePlan',
  'ironbees.rejectPlan',
  'ironbees.cancelRun',
  'ironbees.resumeRun',
  'ironbees.revertRun',
  'ironbees.showHistory',
  'ironbees.setApiKey',
  'ironbees.acceptFile',
  'ironbees.rejectFile',
  'ironbees.acceptHunk',
  'ironbees.rejectHunk',
  'ironbees.submitReview',
  'ironbees.acceptAll',
  'ironbees.rejectAll',
  'ironbees.nextHunk',
  'ironbees.showPanel',
  'ironbees.openRunView',
  'ironbees.chooseModel',
  'ironbees.compareWithOriginal',
  'ironbees.showRunChanges',
];

export type CommandHandlers = { [K in IronbeesCommandId]: (...args: IronbeesCommands[K]) => unknown };

export function registerCommands(handlers: CommandHandlers, onError: (id: string, error: unknown) => void): vscode.Disposable[] {
  return COMMAND_IDS.map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (handlers[id] as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        // A command is a person's click: it reports what went wrong instead of failing silently.
        onError(id, error);
        return undefined;
      }
    }),
  );
}

export function executeCommand<K extends IronbeesCommandId>(id: K, ...args: IronbeesCommands[K]): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...args);
}
