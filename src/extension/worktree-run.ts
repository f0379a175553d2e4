// "Ironbees: Run Agent in a Worktree": the same run as Run Agent, but it works in a git worktree of
// its own on branch `ironbees/<runId>` (core/workflow/worktree-session.ts, the path `ironbees run
// --worktree` takes), so the person's working tree is never written. When it ends the worktree is
// removed and, when the branch kept commits, the person is offered "Apply to working tree"
// (worktree-apply.ts here, `ironbees apply` in the CLI) and the branch name.

import * as vscode from 'vscode';
import type { Logger } from '../core/host';
import type { CodingState } from '../core/model';
import { errorMessage } from '../core/errors';
import { GitRepo } from '../core/workspace/git-worktrees';
import { closeWorktreeSession, openWorktreeSession } from '../core/workflow/worktree-session';
import { cleanLeftoverWorktrees, listRecords, needsCleaning } from '../core/workflow/worktree-runs';
import type { WorktreeEnd } from '../core/workflow/worktree-runs';
import { NodeProcessRunner } from '../host/node/process-runner';
import type { RunController } from './run-controller';

export interface WorktreeRunDeps {
  controller: RunController;
  logger: Logger;
  /** "Apply to working tree" on the end notification. */
  apply: (runId: string) => Promise<unknown>;
}

export const APPLY_CHOICE = 'Apply to Working Tree';
export const COPY_BRANCH_CHOICE = 'Copy Branch Name';

/** The runs started here in a worktree, and the end each had (tests wait on it). */
export class WorktreeRuns {
  private readonly ends = new Map<string, Promise<WorktreeEnd>>();

  constructor(private readonly deps: WorktreeRunDeps) {}

  /** The end of a worktree run started in this window: its worktree removed, its branch kept or not. */
  ended(runId: string): Promise<WorktreeEnd> | undefined {
    return this.ends.get(runId);
  }

  /** Starts the run in its worktree; resolves with its first state. */
  async start(request: string, target?: string): Promise<CodingState> {
    const workspace = this.deps.controller.workspaceRoot;
    const repo = await GitRepo.open(new NodeProcessRunner(), workspace);
    const session = await openWorktreeSession(repo, workspace);
    this.deps.logger.info(`Run ${session.runId} works in ${session.record.path} on branch ${session.record.branch}.`);
    if (session.localChanges) {
      void vscode.window.showInformationMessage(
        'Ironbees: your uncommitted changes are not part of this run: its worktree starts from the last commit.',
      );
    }
    let run: { first: CodingState; done: Promise<void> };
    try {
      run = await this.deps.controller.startIn(session.workspace, request, {
        runId: session.runId,
        ...(target ? { target } : {}),
        wrap: session.commits.states,
      });
    } catch (error) {
      await closeWorktreeSession(repo, workspace, session).catch(() => undefined);
      throw error;
    }
    const end = run.done.then(() => closeWorktreeSession(repo, workspace, session));
    this.ends.set(session.runId, end);
    void end.then(
      (result) => this.announce(session.runId, session.record.branch, result),
      (error: unknown) => this.deps.controller.report('error', `Ending the worktree of run ${session.runId}: ${errorMessage(error)}`),
    );
    return run.first;
  }

  private async announce(runId: string, branch: string, end: WorktreeEnd): Promise<void> {
    for (const line of end.lines) this.deps.logger.info(line);
    if (!end.branchKept) {
      void vscode.window.showInformationMessage(`Ironbees: ${end.lines[end.lines.length - 1] ?? `run ${runId} ended.`}`);
      return;
    }
    const choice = await vscode.window.showInformationMessage(
      `Ironbees: run ${runId} ended; branch ${branch} holds its ${end.commits} commit${end.commits === 1 ? '' : 's'}. Your working tree was not touched.`,
      APPLY_CHOICE,
      COPY_BRANCH_CHOICE,
    );
    if (choice === APPLY_CHOICE) await this.deps.apply(runId);
    if (choice === COPY_BRANCH_CHOICE) await vscode.env.clipboard.writeText(branch);
  }
}

/**
 * What a worktree run left when its window closed or reloaded mid-run (its extension host is gone):
 * its worktree removed and its branch kept or deleted, as the CLI does for a killed run, and said.
 */
export async function cleanWorktreeLeftovers(workspace: string, logger: Logger): Promise<string[]> {
  if (!listRecords(workspace).some((record) => needsCleaning(workspace, record))) return [];
  const lines = await cleanLeftoverWorktrees(await GitRepo.open(new NodeProcessRunner(), workspace), workspace);
  for (const line of lines) logger.info(line);
  if (lines.length) void vscode.window.showInformationMessage(`Ironbees: ${lines.join(' ')}`);
  return lines;
}
