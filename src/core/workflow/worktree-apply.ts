// Bringing a worktree run's branch into the person's working tree (`ironbees apply`, the editor's
// "Apply to working tree"): the files changed from the run's base to its branch, each written from
// the branch byte for byte into the working tree only (nothing staged or committed). A file with
// local changes (it differs from what the run started from) is named so the face can refuse it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigurationError } from '../errors';
import type { ChangedFile, GitRepo } from '../workspace/git-worktrees';
import { branchFor, isActive, readRecord } from './worktree-runs';

export interface ApplyPlan {
  branch: string;
  base: string;
  files: ChangedFile[];
  /** Files among `files` whose working copy differs from the base: applying them loses local work. */
  changedHere: string[];
}

/** What applying `runId` would write; throws when the run still works or kept no branch. */
export async function planApply(repo: GitRepo, workspace: string, runId: string): Promise<ApplyPlan> {
  const record = readRecord(workspace, runId);
  if (record && isActive(record)) {
    throw new ConfigurationError(`Run ${runId} is still working in its worktree (process ${record.pid}); apply it once it has ended.`);
  }
  const branch = branchFor(runId);
  if (!(await repo.commitOf(branch))) {
    throw new ConfigurationError(`There is no branch ${branch}: run ${runId} did not keep one (see \`ironbees runs\`).`);
  }
  const base = record?.base ?? (await repo.git(['merge-base', 'HEAD', branch])).trim();
  const under = path.relative(repo.root, workspace) || '.';
  const files = await repo.changedFiles(base, branch, under);
  const changedHere: string[] = [];
  for (const file of files) if ((await repo.workingBlob(file.path)) !== (await repo.blobAt(base, file.path))) changedHere.push(file.path);
  return { branch, base, files, changedHere };
}

/** Writes one file of the branch into the working tree (deletes it when the run deleted it). */
export async function applyFile(repo: GitRepo, branch: string, file: ChangedFile): Promise<void> {
  if (file.status === 'D') fs.rmSync(path.join(repo.root, file.path), { force: true });
  else await repo.restoreFromRef(branch, file.path);
}
