// What a `--parallel` run's integration branch changes, as edits of the person's files as they are
// now. The phases started from the last commit: a file the person changed since is merged three ways
// (the commit, the person's copy, the phases' result; `git merge-file`), so their change is kept; where
// both changed the same lines the files are named and nothing is written.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileEdit } from '../model';
import { makeFileEdit } from '../workspace/diff';
import { GitError } from '../workspace/git-worktrees';
import type { ParallelWorktrees } from './parallel-worktrees';

export type IntegratedEdits = { edits: FileEdit[] } | { localConflicts: string[] };

export async function integratedEdits(trees: ParallelWorktrees, workspace: string): Promise<IntegratedEdits> {
  const repo = trees.repo;
  const under = path.relative(repo.root, workspace);
  const branch = trees.integration.record.branch;
  const show = async (ref: string, file: string): Promise<string | null> =>
    (await repo.blobAt(ref, file)) === null ? null : repo.git(['show', `${ref}:${file}`]);
  const edits: FileEdit[] = [];
  const localConflicts: string[] = [];
  for (const file of await repo.changedFiles(trees.base, branch, under || '.')) {
    const relative = path.relative(under, file.path).split(path.sep).join('/');
    const onDisk = path.join(repo.root, file.path);
    const current = fs.existsSync(onDisk) ? fs.readFileSync(onDisk, 'utf8') : null;
    const base = await show(trees.base, file.path);
    let next = file.status === 'D' ? null : await show(branch, file.path);
    if (current !== base && current !== next) {
      const merged = current !== null && base !== null && next !== null ? await mergeThreeWays(trees, current, base, next) : null;
      if (merged === null) {
        localConflicts.push(relative);
        continue;
      }
      next = merged;
    }
    if (current !== next) edits.push(makeFileEdit(relative, current, next));
  }
  return localConflicts.length ? { localConflicts } : { edits };
}

/** The person's copy and the phases' result merged over their common base; null when they conflict. */
async function mergeThreeWays(trees: ParallelWorktrees, current: string, base: string, next: string): Promise<string | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-merge-'));
  try {
    const [mine, common, theirs] = ['current', 'base', 'phases'].map((name) => path.join(dir, name));
    fs.writeFileSync(mine as string, current);
    fs.writeFileSync(common as string, base);
    fs.writeFileSync(theirs as string, next);
    return await trees.repo.git(['merge-file', '-p', mine as string, common as string, theirs as string], dir);
  } catch (error) {
    // merge-file exits with the number of conflicts.
    if (error instanceof GitError) return null;
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
