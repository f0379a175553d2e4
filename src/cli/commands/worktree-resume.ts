// `resume` and `revert` of a run that worked in a worktree of its own. Its edits are on its branch,
// never in the person's working tree, so neither may write there: resume makes the worktree again
// from the branch (same folder, the run folder copied back) and goes on in it, with the same end as
// `run --worktree`; revert deletes the branch, which holds all the run changed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigurationError } from '../../core/errors';
import { GitRepo } from '../../core/workspace/git-worktrees';
import { endWorktreeRun, isActive, worktreeRunDir, writeRecord } from '../../core/workflow/worktree-runs';
import type { WorktreeRecord } from '../../core/workflow/worktree-runs';
import type { ResumeArgs, RevertArgs } from '../args';
import { writeLine } from '../terminal';
import { cliWorkspaceTrust } from '../workspace-trust';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { resumeCommand } from './resume';
import { IterationCommits } from '../../core/workflow/worktree-commits';

async function openFor(ctx: CommandContext, workspace: string, record: WorktreeRecord): Promise<GitRepo> {
  if (isActive(record)) throw new ConfigurationError(`Run ${record.runId} is at work in its worktree (process ${record.pid}).`);
  return GitRepo.open(ctx.deps.createHost(workspace, ctx.logger).process, workspace);
}

export async function resumeInWorktree(ctx: CommandContext, args: ResumeArgs, record: WorktreeRecord): Promise<number> {
  await checkWorkspace(args.workspace);
  const repo = await openFor(ctx, args.workspace, record);
  if (!(await repo.commitOf(record.branch))) {
    throw new ConfigurationError(`Run ${record.runId} worked on branch ${record.branch}, which is gone; it cannot be resumed.`);
  }
  const trusted = await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true });
  await repo.checkoutWorktree(record.path, record.branch);
  const again: WorktreeRecord = { ...record, pid: process.pid, startedAt: new Date().toISOString() };
  delete again.endedAt;
  delete again.node;
  delete again.branchKept;
  writeRecord(args.workspace, again);
  const commits = new IterationCommits(repo, record.workspace);
  try {
    const kept = path.join(args.workspace, '.ironbees', 'runs', record.runId);
    if (fs.existsSync(kept)) fs.cpSync(kept, worktreeRunDir(record), { recursive: true });
    writeLine(ctx.io.stderr, `Run ${record.runId} goes on in ${record.path} on branch ${record.branch}; your working tree is not touched.`);
    const code = await resumeCommand(ctx, { ...args, workspace: record.workspace }, { trusted, states: commits.states });
    await commits.commitRest();
    return code;
  } finally {
    await commits.commitRest().catch(() => undefined);
    const end = await endWorktreeRun(repo, args.workspace, again, commits.lastNode ?? record.node ?? null);
    for (const line of end.lines) writeLine(ctx.io.stderr, line);
  }
}

export async function revertWorktreeRun(ctx: CommandContext, args: RevertArgs, record: WorktreeRecord): Promise<number> {
  await checkWorkspace(args.workspace);
  const repo = await openFor(ctx, args.workspace, record);
  const out = (text: string): void => writeLine(ctx.io.stdout, text);
  out(`Run ${record.runId} worked in a worktree: it never changed your working tree.`);
  if (await repo.commitOf(record.branch)) {
    await repo.deleteBranch(record.branch);
    out(`Deleted branch ${record.branch}. If you applied it with \`ironbees apply\`, undo that with git (git restore, git checkout).`);
  } else {
    out(`Branch ${record.branch} is already gone; nothing to revert.`);
  }
  writeRecord(args.workspace, { ...record, branchKept: false });
  return 0;
}
