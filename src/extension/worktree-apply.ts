// "Ironbees: Apply Worktree Run to Working Tree" — what `ironbees apply <runId>` does, in the editor:
// each file the run's branch changed is shown as a diff (the working file ↔ the branch's) and
// applied when the person says so, into the working tree only (nothing staged), so the Source
// Control view shows exactly what came in. Files with local changes the run did not start from are
// named and overwritten only when the person confirms (`--force`). `{ yes: true }` (scripts,
// tests) applies every file without asking, as `--yes` does.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GitRepo } from '../core/workspace/git-worktrees';
import type { ChangedFile } from '../core/workspace/git-worktrees';
import { applyFile, planApply } from '../core/workflow/worktree-apply';
import { NodeProcessRunner } from '../host/node/process-runner';

export interface ApplyOptions {
  /** Apply every file without asking. */
  yes?: boolean;
  /** Overwrite files with local changes without asking. */
  force?: boolean;
}

/** Resolves with the files written (repository-relative), or undefined when the person stopped. */
export async function applyWorktreeRun(workspace: string, runId: string, options: ApplyOptions = {}): Promise<string[] | undefined> {
  const repo = await GitRepo.open(new NodeProcessRunner(), workspace);
  const plan = await planApply(repo, workspace, runId);
  if (plan.files.length === 0) {
    void vscode.window.showInformationMessage(`Ironbees: branch ${plan.branch} changes no file; nothing to apply.`);
    return [];
  }
  if (plan.changedHere.length > 0 && !options.force) {
    const overwrite = 'Overwrite Them';
    const answer = options.yes
      ? undefined
      : await vscode.window.showWarningMessage(
          `These files have local changes the run did not start from: ${plan.changedHere.join(', ')}.`,
          { modal: true, detail: 'Commit or stash them first, or overwrite them with the run’s version.' },
          overwrite,
        );
    if (answer !== overwrite) {
      if (options.yes) throw new Error(`These files have local changes the run did not start from: ${plan.changedHere.join(', ')}.`);
      return undefined;
    }
  }
  const applied: string[] = [];
  for (const file of plan.files) {
    if (!options.yes) {
      const answer = await reviewFile(repo, plan.branch, file);
      if (answer === undefined) return applied;
      if (!answer) continue;
    }
    await applyFile(repo, plan.branch, file);
    applied.push(file.path);
  }
  void vscode.window.showInformationMessage(
    `Ironbees: applied ${applied.length} of ${plan.files.length} file${plan.files.length === 1 ? '' : 's'} from ${plan.branch} to the working tree (nothing staged).`,
  );
  return applied;
}

/** The file's diff in an editor, then Apply / Skip; undefined when the person dismissed the question. */
async function reviewFile(repo: GitRepo, branch: string, file: ChangedFile): Promise<boolean | undefined> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-apply-'));
  try {
    const theirs = path.join(scratch, path.basename(file.path));
    const content = file.status === 'D' ? '' : await repo.git(['show', `${branch}:${file.path}`]);
    fs.writeFileSync(theirs, content);
    const mine = path.join(repo.root, file.path);
    const left = fs.existsSync(mine) ? vscode.Uri.file(mine) : vscode.Uri.file(path.join(scratch, 'empty'));
    if (!fs.existsSync(mine)) fs.writeFileSync(left.fsPath, '');
    await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(theirs), `${file.path}: working tree ↔ ${branch}`, {
      preview: true,
    });
    const answer = await vscode.window.showInformationMessage(`Apply ${file.path} from ${branch}?`, 'Apply', 'Skip');
    return answer === undefined ? undefined : answer === 'Apply';
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
