// `ironbees run --worktree`: the run works in a git worktree of its own, on branch
// `ironbees/<runId>` made from the last commit, and commits each applied iteration there with the
// coder's summary as the message. The person's working tree is never written; the run's lock, build
// output (obj/, bin/) and build servers are the worktree's own. Whatever the end (success, failure,
// Ctrl-C, an error), the run folder is kept in the workspace's `.ironbees/runs/`, the worktree is
// removed and the branch stays only when it is worth keeping (worktree-runs.ts).

import * as path from 'node:path';
import { ConfigurationError } from '../../core/errors';
import { GitRepo } from '../../core/workspace/git-worktrees';
import { RunStore } from '../../core/workflow/store';
import { endWorktreeRun, newRecord, worktreesDir, writeRecord } from '../../core/workflow/worktree-runs';
import type { RunArgs } from '../args';
import { writeLine } from '../terminal';
import { cliWorkspaceTrust } from '../workspace-trust';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { runCommand } from './run';
import { IterationCommits } from './worktree-commits';

/** The run's workspace inside its worktree: the same place relative to the repository's top. */
function workspaceIn(top: string, repo: GitRepo, workspace: string): string {
  const relative = path.relative(repo.root, workspace);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new ConfigurationError(`${workspace} is not inside ${repo.root}.`);
  return path.join(top, relative);
}

/** An absolute --target in the person's workspace names the same file in the worktree. */
function targetIn(args: RunArgs): string | undefined {
  if (!args.target || !path.isAbsolute(args.target)) return args.target;
  return path.relative(args.workspace, args.target);
}

export async function runInWorktree(ctx: CommandContext, args: RunArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const repo = await GitRepo.open(ctx.deps.createHost(args.workspace, ctx.logger).process, args.workspace);
  const base = await repo.commitOf('HEAD');
  if (!base) throw new ConfigurationError(`The repository ${repo.root} has no commit yet; a worktree starts from one.`);
  // Trust is the person's workspace's: the worktree is a copy of its last commit.
  const trusted = await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true });
  const runId = RunStore.newRunId();
  const parent = args.worktreesDir ?? worktreesDir(args.workspace);
  const top = path.join(parent, runId);
  const workspace = workspaceIn(top, repo, args.workspace);
  const inRepo = path.relative(repo.root, parent);
  if (!inRepo.startsWith('..') && !path.isAbsolute(inRepo)) await repo.exclude(`/${inRepo.split(path.sep).join('/')}/`);
  const local = await repo.status();
  const record = newRecord({ runId, path: top, workspace, base });
  writeRecord(args.workspace, record);
  const commits = new IterationCommits(repo, workspace);
  let ended = false;
  try {
    await repo.addWorktree(top, record.branch, base);
    writeLine(
      ctx.io.stderr,
      `Run ${runId} works in ${top} on branch ${record.branch} (from ${base.slice(0, 10)}); your working tree is not touched.`,
    );
    if (local.length > 0)
      writeLine(ctx.io.stderr, ctx.colors.yellow('Your uncommitted changes are not part of it: the worktree starts from the last commit.'));
    const target = targetIn(args);
    const code = await runCommand(
      ctx,
      { ...args, workspace, worktree: false, ...(target !== undefined ? { target } : {}) },
      { runId, trusted, states: commits.states },
    );
    await commits.commitRest();
    ended = true;
    return code;
  } finally {
    if (!ended) await commits.commitRest().catch(() => undefined);
    const end = await endWorktreeRun(repo, args.workspace, record, commits.lastNode);
    for (const line of end.lines) writeLine(ctx.io.stderr, line);
  }
}
