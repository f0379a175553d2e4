// The git side of phases run at once (`--parallel N`): an integration worktree on `ironbees/<runId>`
// made from the last commit, one worktree per phase on `ironbees/<runId>-phase-<phaseId>` made from
// the integration branch as it is when the phase starts (so a dependent phase starts from the merged
// result), the merge of a finished phase into the integration branch, and the end of each. Every
// worktree has a record (worktree-runs.ts) so what a killed run leaves is cleaned by the next
// command; their branches are never kept. Git commands go one at a time: worktrees share one
// repository and its locks.

import * as path from 'node:path';
import type { GitRepo, MergeResult } from '../workspace/git-worktrees';
import { warmPhaseTree } from './phase-warmup';
import { endWorktreeRun, listRecords, newRecord, worktreesDir, writeRecord } from './worktree-runs';
import type { WorktreeRecord } from './worktree-runs';
import { workspaceIn, worktreeBase } from './worktree-session';

export interface ParallelTree {
  record: WorktreeRecord;
  /** The run's workspace inside the worktree (the same place relative to the repository's top). */
  workspace: string;
}

export class ParallelWorktrees {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly open = new Set<ParallelTree>();
  /** What must end before a tree is removed (its runtime stopping its build servers). */
  private readonly ending = new Map<ParallelTree, Promise<unknown>>();

  private constructor(
    readonly repo: GitRepo,
    /** The person's workspace: where the records are kept. */
    private readonly workspace: string,
    private readonly runId: string,
    /** The commit the run's phases start from. */
    readonly base: string,
    readonly integration: ParallelTree,
  ) {
    this.open.add(integration);
  }

  /** The integration worktree, after what an earlier attempt of this run left (a resume starts the phases again) is removed. */
  static async create(repo: GitRepo, workspace: string, runId: string): Promise<ParallelWorktrees> {
    const base = await worktreeBase(repo);
    const parent = worktreesDir(workspace);
    const inRepo = path.relative(repo.root, parent);
    if (!inRepo.startsWith('..') && !path.isAbsolute(inRepo)) await repo.exclude(`/${inRepo.split(path.sep).join('/')}/`);
    for (const record of listRecords(workspace)) {
      if (!record.endedAt && (record.runId === runId || record.runId.startsWith(`${runId}-phase-`))) {
        await endWorktreeRun(repo, workspace, record, null);
      }
    }
    const integration = await addTree(repo, workspace, runId, base, base);
    return new ParallelWorktrees(repo, workspace, runId, base, integration);
  }

  /** Runs `work` after every git work asked for before it. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** A worktree for phase `slug`, from the integration branch as it is now, warmed with the main workspace's build output (phase-warmup.ts). */
  addPhase(slug: string): Promise<ParallelTree> {
    return this.serial(async () => {
      const tree = await addTree(this.repo, this.workspace, `${this.runId}-phase-${slug}`, this.base, this.integration.record.branch);
      this.open.add(tree);
      return tree;
    }).then(async (tree) => {
      await warmPhaseTree(this.repo, tree.record.path);
      return tree;
    });
  }

  /** Merges the phase's branch into the integration branch (no fast-forward; a conflict is returned, never resolved). */
  merge(tree: ParallelTree, message: string): Promise<MergeResult> {
    return this.serial(() => this.repo.merge(this.integration.record.path, tree.record.branch, message));
  }

  /** `work` (the phase's runtime stopping) ends before the tree is removed; its merge does not wait for it. */
  endsAfter(tree: ParallelTree, work: Promise<unknown>): void {
    this.ending.set(
      tree,
      work.catch(() => undefined),
    );
  }

  /** The phase's run folder kept in the person's workspace, its worktree removed and its branch deleted. */
  async close(tree: ParallelTree): Promise<void> {
    await this.ending.get(tree);
    return this.serial(async () => {
      if (!this.open.delete(tree)) return;
      await endWorktreeRun(this.repo, this.workspace, tree.record, null);
    });
  }

  /** Every worktree still open ended, the integration one last. */
  async closeAll(): Promise<void> {
    for (const tree of [...this.open].filter((t) => t !== this.integration)) await this.close(tree);
    await this.close(this.integration);
  }
}

async function addTree(repo: GitRepo, workspace: string, runId: string, base: string, from: string): Promise<ParallelTree> {
  const top = path.join(worktreesDir(workspace), runId);
  const record: WorktreeRecord = { ...newRecord({ runId, path: top, workspace: workspaceIn(top, repo, workspace), base }), kind: 'phase' };
  writeRecord(workspace, record);
  try {
    await repo.addWorktree(top, record.branch, from);
  } catch (error) {
    await endWorktreeRun(repo, workspace, record, null).catch(() => undefined);
    throw error;
  }
  return { record, workspace: record.workspace };
}
