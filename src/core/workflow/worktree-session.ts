// The start and the end of a run that works in a git worktree of its own, shared by every face
// (`ironbees run --worktree`, the editor's "Run Agent in a Worktree"): the run id chosen first, the
// worktree made from the last commit on branch `ironbees/<runId>`, its folder excluded through
// `.git/info/exclude`, a record written so a killed run is cleaned up later; at the end the
// iteration commits completed and the worktree removed (worktree-runs.ts). The face runs the
// orchestrator in `workspace` with `runId` and passes its states through `commits.states`.

import * as path from 'node:path';
import { ConfigurationError } from '../errors';
import type { GitRepo } from '../workspace/git-worktrees';
import { RunStore } from './store';
import { IterationCommits } from './worktree-commits';
import { endWorktreeRun, newRecord, worktreesDir, writeRecord } from './worktree-runs';
import type { WorktreeEnd, WorktreeRecord } from './worktree-runs';

export interface WorktreeSession {
  runId: string;
  record: WorktreeRecord;
  /** The run's workspace inside the worktree (the same place relative to the repository's top). */
  workspace: string;
  /** The commit the branch starts from. */
  base: string;
  /** The person has uncommitted changes: they are not part of the run. */
  localChanges: boolean;
  commits: IterationCommits;
}

/** The run's workspace inside its worktree: the same place relative to the repository's top. */
export function workspaceIn(top: string, repo: GitRepo, workspace: string): string {
  const relative = path.relative(repo.root, workspace);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new ConfigurationError(`${workspace} is not inside ${repo.root}.`);
  return path.join(top, relative);
}

/** The base commit of a worktree run in `workspace`; a repository without one cannot have a worktree. */
export async function worktreeBase(repo: GitRepo): Promise<string> {
  const base = await repo.commitOf('HEAD');
  if (!base) throw new ConfigurationError(`The repository ${repo.root} has no commit yet; a worktree starts from one.`);
  return base;
}

/** Makes the worktree and its record; `parent` is where worktrees go (default `.ironbees/worktrees`). */
export async function openWorktreeSession(repo: GitRepo, workspace: string, parent = worktreesDir(workspace)): Promise<WorktreeSession> {
  const base = await worktreeBase(repo);
  const runId = RunStore.newRunId();
  const top = path.join(parent, runId);
  const inWorktree = workspaceIn(top, repo, workspace);
  const inRepo = path.relative(repo.root, parent);
  if (!inRepo.startsWith('..') && !path.isAbsolute(inRepo)) await repo.exclude(`/${inRepo.split(path.sep).join('/')}/`);
  const localChanges = (await repo.status()).length > 0;
  const record = newRecord({ runId, path: top, workspace: inWorktree, base });
  writeRecord(workspace, record);
  try {
    await repo.addWorktree(top, record.branch, base);
  } catch (error) {
    // Nothing ran: the record is ended now, not left for a clean-up that waits for this process to die.
    await endWorktreeRun(repo, workspace, record, null).catch(() => undefined);
    throw error;
  }
  return { runId, record, workspace: inWorktree, base, localChanges, commits: new IterationCommits(repo, inWorktree) };
}

/** The end, whatever the outcome: what was applied committed, the worktree removed, the branch kept or not. */
export async function closeWorktreeSession(repo: GitRepo, workspace: string, session: WorktreeSession): Promise<WorktreeEnd> {
  await session.commits.commitRest().catch(() => undefined);
  return endWorktreeRun(repo, workspace, session.record, session.commits.lastNode);
}
