// The git side of phases run at once (`--parallel N`): an integration worktree on `ironbees/<runId>`
// made from the last commit, one worktree per phase on `ironbees/<runId>-phase-<phaseId>` made from
// the integration branch as it is when the phase starts (so a dependent phase starts from the merged
// result), the merge of a finished phase into the integration branch, and the end of each. Every
// worktree has a record (worktree-runs.ts) so what a killed run leaves is cleaned by the next
// command; a phase's branch is never kept, the integration branch only while the run can be resumed
// and has phases merged on it: a resume makes the integration worktree again from it (parallel-resume.ts).
// Git commands go one at a time: worktrees share one repository and its locks.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { PhaseState } from '../model';
import type { GitRepo, MergeResult } from '../workspace/git-worktrees';
import { warmPhaseTree } from './phase-warmup';
import {
  endWorktreeRun,
  isActive,
  listRecords,
  newRecord,
  readRecord,
  removeOwnWorktree,
  worktreesDir,
  writeRecord,
} from './worktree-runs';
import type { WorktreeRecord } from './worktree-runs';
import { workspaceIn, worktreeBase } from './worktree-session';

const BUILD_OUTPUT = /^(obj|bin)$/i;

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
  private readonly closing = new Map<ParallelTree, Promise<void>>();

  private constructor(
    readonly repo: GitRepo,
    /** The person's workspace: where the records are kept. */
    private readonly workspace: string,
    private readonly runId: string,
    /** The commit the run's phases start from. */
    readonly base: string,
    readonly integration: ParallelTree,
    /** The phases as an earlier attempt of this run last showed them, when this one goes on from its integration branch. */
    readonly earlier: PhaseState[] | null,
  ) {
    this.open.add(integration);
  }

  /**
   * The integration worktree: made again from the run's integration branch when an earlier attempt
   * of this run kept it (killed with phases merged), else new from the last commit. What else an
   * earlier attempt left (its phases' worktrees and branches) is removed: those phases run again.
   */
  static async create(repo: GitRepo, workspace: string, runId: string): Promise<ParallelWorktrees> {
    const parent = worktreesDir(workspace);
    const inRepo = path.relative(repo.root, parent);
    if (!inRepo.startsWith('..') && !path.isAbsolute(inRepo)) await repo.exclude(`/${inRepo.split(path.sep).join('/')}/`);
    const kept = await keptIntegration(repo, workspace, runId);
    for (const record of listRecords(workspace)) {
      if (record.endedAt || record.runId === kept?.runId) continue;
      if (record.runId === runId || record.runId.startsWith(`${runId}-phase-`)) await endWorktreeRun(repo, workspace, record, null);
    }
    if (kept) {
      const integration = await reopenTree(repo, workspace, kept);
      return new ParallelWorktrees(repo, workspace, runId, kept.base, integration, kept.phases ?? []);
    }
    const base = await worktreeBase(repo);
    const integration = await addTree(repo, workspace, runId, base, base, true);
    return new ParallelWorktrees(repo, workspace, runId, base, integration, null);
  }

  /** Keeps the phases as they are now in the integration worktree's record, for a resume after a kill. */
  savePhases(phases: PhaseState[]): void {
    this.integration.record.phases = phases;
    writeRecord(this.workspace, this.integration.record);
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

  /** The phase's run folder kept in the person's workspace, its worktree removed and its branch deleted (once, however often asked). */
  close(tree: ParallelTree): Promise<void> {
    let closing = this.closing.get(tree);
    if (!closing) {
      closing = this.closeOnce(tree);
      this.closing.set(tree, closing);
    }
    return closing;
  }

  private async closeOnce(tree: ParallelTree): Promise<void> {
    await this.ending.get(tree);
    // Most of a phase's worktree is build output, none of git's business: it goes before the git step,
    // so the merges of the other phases do not wait behind its deletion.
    if (tree !== this.integration) await removeBuildOutput(tree.record.path);
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

/** The record of the run's integration branch an earlier attempt kept (or left, killed, for the clean-up), when the branch is there. */
async function keptIntegration(repo: GitRepo, workspace: string, runId: string): Promise<WorktreeRecord | null> {
  const record = readRecord(workspace, runId);
  if (!record?.integration || isActive(record) || (record.endedAt && !record.branchKept)) return null;
  return (await repo.commitOf(record.branch)) ? record : null;
}

/** The integration worktree made again at its place, on its kept branch, with the merges it holds. */
async function reopenTree(repo: GitRepo, workspace: string, kept: WorktreeRecord): Promise<ParallelTree> {
  await removeOwnWorktree(repo, workspace, kept);
  const top = path.join(worktreesDir(workspace), kept.runId);
  const fresh = newRecord({ runId: kept.runId, path: top, workspace: workspaceIn(top, repo, workspace), base: kept.base });
  const record: WorktreeRecord = { ...fresh, kind: 'phase', integration: true, ...(kept.phases ? { phases: kept.phases } : {}) };
  writeRecord(workspace, record);
  await repo.checkoutWorktree(top, record.branch);
  return { record, workspace: record.workspace };
}

/** Every obj/ and bin/ folder under `top` (links are not followed, `.git` is left to git). */
async function removeBuildOutput(top: string): Promise<void> {
  const pending = [top];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      if (BUILD_OUTPUT.test(entry.name)) await fs.rm(full, { recursive: true, force: true, maxRetries: 3 });
      else pending.push(full);
    }
  }
}

async function addTree(
  repo: GitRepo,
  workspace: string,
  runId: string,
  base: string,
  from: string,
  integration = false,
): Promise<ParallelTree> {
  const top = path.join(worktreesDir(workspace), runId);
  const fresh = newRecord({ runId, path: top, workspace: workspaceIn(top, repo, workspace), base });
  const record: WorktreeRecord = { ...fresh, kind: 'phase', ...(integration ? { integration: true as const } : {}) };
  writeRecord(workspace, record);
  try {
    await repo.addWorktree(top, record.branch, from);
  } catch (error) {
    await endWorktreeRun(repo, workspace, record, null).catch(() => undefined);
    throw error;
  }
  return { record, workspace: record.workspace };
}
