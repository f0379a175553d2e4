// What each command and each panel message does, in one place: the palette, the CodeLens, the
// editor title and the webview all end up here. Missing arguments are asked for (input boxes,
// quick picks); arguments given (tests, the panel) are used as they are.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/host';
import type { CodingState, ExecutionPlan } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import type { RunSummary } from '../core/trace';
import type { FileRef, HunkRef } from './commands';
import type { ReviewController } from './review/review-controller';
import type { RunController } from './run-controller';
import type { ApiKeyStore } from './secrets';
import type { RecentRequests } from './run-agent';
import { askForRequest, pickTarget } from './run-agent';
import { nodeLabel } from './status-text';

export interface ActionDeps {
  controller: RunController;
  review: ReviewController;
  folder: vscode.WorkspaceFolder;
  apiKeys: ApiKeyStore;
  recent: RecentRequests;
  logger: Logger;
  revealPanel: (preserveFocus: boolean) => Promise<void>;
  /** "Restore here": diff, confirm, rewind (checkpoint-restore.ts). */
  restoreCheckpoint: (runId: string, checkpoint: string) => Promise<void>;
}

const DEFAULT_EXTRA_ITERATIONS = 3;

export class IronbeesActions {
  constructor(private readonly deps: ActionDeps) {}

  /**
   * Starts a run (in a git worktree of its own when `inWorktree` is given); resolves with its first
   * state, or undefined when the person dismissed a question.
   */
  async runAgent(
    request?: string,
    target?: string,
    inWorktree?: (request: string, target?: string) => Promise<CodingState>,
  ): Promise<CodingState | undefined> {
    const text = request?.trim() || (await askForRequest(this.deps.recent.list()));
    if (!text) return undefined;
    const chosen = target ?? (await pickTarget(this.deps.folder));
    if (chosen === null) return undefined;
    await this.deps.recent.remember(text);
    await closeHandoffPreviews();
    await this.deps.revealPanel(true);
    return inWorktree ? inWorktree(text, chosen) : this.deps.controller.start(text, chosen);
  }

  approvePlan(editedPlan?: ExecutionPlan): Promise<void> {
    return this.deps.controller.approvePlan(editedPlan);
  }

  async rejectPlan(feedback?: string): Promise<void> {
    const text = feedback?.trim() || (await ask('What should change in the plan?', 'The planner replans with this feedback'));
    if (text) await this.deps.controller.rejectPlan(text);
  }

  /** A person's Cancel (the panel, the palette) is confirmed first: the step in flight is lost. */
  async cancelRun(options: { confirm?: boolean } = { confirm: true }): Promise<void> {
    if (options.confirm !== false) {
      const answer = await vscode.window.showWarningMessage(
        'Cancel the run? The step in progress stops; the run is kept, and the files it already changed stay as they are (Revert puts them back).',
        { modal: true },
        'Yes, Cancel the Run',
      );
      if (answer !== 'Yes, Cancel the Run') return;
    }
    await this.deps.controller.cancel();
  }

  async resumeRun(runId?: string): Promise<CodingState | undefined> {
    const id = runId ?? (await pickRun(await this.deps.controller.unfinishedRuns(), 'Resume which run?'));
    if (!id) return undefined;
    await this.deps.revealPanel(true);
    return this.deps.controller.resume(id);
  }

  /**
   * Restores every file a run changed; a run still waiting for the person is stopped first. A
   * person's click (the palette, the history, the panel) confirms in a modal first; a run id given
   * to the command by a script or a test is reverted as asked.
   */
  async revertRun(runId?: string, options: { confirm?: boolean } = {}): Promise<void> {
    let runs: RunSummary[] | undefined;
    let id = runId;
    if (!id) {
      runs = await this.deps.controller.history();
      id = await pickRun(runs, 'Revert which run? Every file it changed gets its original content back.');
      if (!id) return;
    }
    if (options.confirm ?? runId === undefined) {
      const run = (runs ?? (await this.deps.controller.history())).find((r) => r.runId === id);
      if (!(await confirmRevert(id, run))) return;
    }
    const report = await this.deps.controller.revert(id);
    const files = [...report.restored, ...report.deleted];
    this.deps.controller.report('notice', files.length ? `Reverted run ${id}: ${files.join(', ')}` : `Run ${id} had changed no file.`);
  }

  async showHistory(): Promise<void> {
    await this.deps.revealPanel(false);
    const runs = await this.deps.controller.history();
    const id = await pickRun(runs, 'Run history: pick a run to resume or revert');
    const run = runs.find((r) => r.runId === id);
    if (!run) return;
    const unfinished = !TERMINAL_NODES.includes(run.currentNode);
    const action = await vscode.window.showQuickPick([...(unfinished ? ['Resume'] : []), 'Revert', 'Open hand-off'], {
      title: `Run ${run.runId}`,
    });
    if (action === 'Resume') await this.resumeRun(run.runId);
    if (action === 'Revert') await this.revertRun(run.runId, { confirm: true });
    if (action === 'Open hand-off') await this.openHandoff(run.runId);
  }

  /** The run's HANDOFF.md as a rendered Markdown preview (the panel's "Open HANDOFF.md"). */
  /** The panel's "Change…" beside the model line: the same picker as the command. */
  async chooseModel(): Promise<void> {
    await vscode.commands.executeCommand('ironbees.chooseModel');
  }

  async openHandoff(runId: string): Promise<void> {
    const handoff = vscode.Uri.file(this.deps.controller.store.handoffPath(runId));
    const exists = await vscode.workspace.fs.stat(handoff).then(
      () => true,
      () => false,
    );
    // An interrupted run wrote none (it neither ended nor escalated): it gets one as it stands now.
    if (!exists && !(await this.deps.controller.writeInterruptedHandoff(runId))) {
      this.deps.controller.report('notice', `Run ${runId} has no hand-off yet.`);
      return;
    }
    await vscode.commands.executeCommand('markdown.showPreview', handoff);
  }

  setApiKey(): Promise<boolean> {
    return this.deps.apiKeys.prompt();
  }

  async acceptFile(ref?: FileRef | vscode.Uri): Promise<void> {
    const filePath = await this.fileOf(ref);
    if (filePath) await this.deps.review.setFile(filePath, true);
  }

  async rejectFile(ref?: FileRef | vscode.Uri, reason?: string): Promise<void> {
    const filePath = await this.fileOf(ref);
    if (!filePath) return;
    const why = reason ?? (await ask(`Why reject ${filePath}? (optional, told to the agent; Escape cancels)`, '', true));
    // Escape dismisses the question: no decision is made (an empty answer rejects without a reason).
    if (why === undefined) return;
    await this.deps.review.setFile(filePath, false, why.trim() || undefined);
  }

  /** A hunk's CodeLens passes its hunk; a key binding means the hunk under the cursor. */
  async acceptHunk(given?: HunkRef): Promise<void> {
    const ref = given ?? this.deps.review.hunkAtCursor();
    if (ref) await this.deps.review.setHunk(ref.filePath, ref.hunk, true);
  }

  async rejectHunk(given?: HunkRef, reason?: string): Promise<void> {
    const ref = given ?? this.deps.review.hunkAtCursor();
    if (!ref) return;
    const why =
      reason ?? (await ask(`Why reject hunk ${ref.hunk + 1} of ${ref.filePath}? (optional, told to the agent; Escape cancels)`, '', true));
    if (why === undefined) return;
    await this.deps.review.setHunk(ref.filePath, ref.hunk, false, why.trim() || undefined);
  }

  submitReview(): Promise<void> {
    return this.deps.review.submit();
  }

  rejectDiffs(feedback: string): Promise<void> {
    return this.deps.review.rejectAll(feedback);
  }

  /** The review bar's "Reject All": the whole proposal, with feedback for the coder (asked when not given). */
  async rejectAll(feedback?: string): Promise<void> {
    const text = feedback ?? (await ask('Why reject every change? (told to the agent)', 'e.g. keep the public API as it is', false));
    if (!text?.trim()) return;
    await this.deps.review.rejectAll(text.trim());
  }

  async continueRun(guidance?: string, additionalIterations?: number): Promise<void> {
    const text = guidance ?? (await ask('Guidance for the agent (what to try next)', 'Leave empty to simply try again', true));
    if (text === undefined) return;
    const more = additionalIterations ?? (await askIterations());
    if (more === undefined) return;
    await this.deps.controller.continueRun(text, more);
  }

  /** The panel's "Restore here" / "Back to last green" (a checkpoint id, `plan`, `iteration:N`, `last-green`). */
  restoreCheckpoint(runId: string, checkpoint: string): Promise<void> {
    return this.deps.restoreCheckpoint(runId, checkpoint);
  }

  stopRun(): Promise<void> {
    return this.deps.controller.stop();
  }

  /** Opens a workspace file at a 1-based line and column (a build error in the panel). */
  async openFile(filePath: string, line: number, column: number): Promise<void> {
    const abs = path.resolve(this.deps.folder.uri.fsPath, filePath);
    const rel = path.relative(this.deps.folder.uri.fsPath, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${filePath} is outside the workspace.`);
    const position = new vscode.Position(Math.max(line - 1, 0), Math.max(column - 1, 0));
    await vscode.window.showTextDocument(vscode.Uri.file(abs), { selection: new vscode.Range(position, position), preview: true });
  }

  private async fileOf(ref?: FileRef | vscode.Uri): Promise<string | undefined> {
    const resolved = this.deps.review.resolveFile(ref);
    if (resolved) return resolved;
    const pending = this.deps.review.review?.pending() ?? [];
    if (!pending.length) throw new Error('There is no proposed file waiting for a decision.');
    return vscode.window.showQuickPick(pending, { title: 'Which proposed file?' });
  }
}

/** An earlier run's HANDOFF.md preview would read as the new run's: it is closed when a run starts. */
async function closeHandoffPreviews(): Promise<void> {
  const previews = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && /\bHANDOFF\.md$/.test(tab.label.trim()));
  if (previews.length) await vscode.window.tabGroups.close(previews, true).then(undefined, () => undefined);
}

function ask(prompt: string, placeHolder: string, optional = false): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({
      prompt,
      placeHolder,
      ignoreFocusOut: true,
      validateInput: (value) => (optional || value.trim() ? undefined : 'Say what should change'),
    }),
  );
}

/** The modal before a revert: it names what happens to a run that is still waiting. */
async function confirmRevert(runId: string, run: RunSummary | undefined): Promise<boolean> {
  const waiting = run !== undefined && !TERMINAL_NODES.includes(run.currentNode);
  const what = run ? `"${run.userRequest.split('\n')[0].slice(0, 80)}" (${runId})` : runId;
  const message = waiting
    ? `The run ${what} has not finished (${nodeLabel(run.currentNode)}). Stop it and restore every file it changed to its original content?`
    : `Restore every file the run ${what} changed to its original content?`;
  const action = waiting ? 'Stop and Revert' : 'Revert';
  return (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action;
}

async function askIterations(): Promise<number | undefined> {
  const answer = await vscode.window.showInputBox({
    prompt: 'How many more iterations?',
    value: String(DEFAULT_EXTRA_ITERATIONS),
    ignoreFocusOut: true,
    validateInput: (value) =>
      /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 50 ? undefined : 'A whole number from 1 to 50',
  });
  return answer === undefined ? undefined : Number(answer);
}

async function pickRun(runs: readonly RunSummary[], title: string): Promise<string | undefined> {
  if (!runs.length) {
    void vscode.window.showInformationMessage('Ironbees: there are no runs to choose from.');
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(
    runs.map((run) => ({
      label: run.userRequest.split('\n')[0].slice(0, 80),
      description: `${nodeLabel(run.currentNode)} · ${run.iterationCount}/${run.maxIterations} · $${run.usage.costUsd.toFixed(2)}`,
      detail: `${run.runId} · ${new Date(run.updatedAt).toLocaleString()}`,
      runId: run.runId,
    })),
    { title, matchOnDetail: true },
  );
  return chosen?.runId;
}
