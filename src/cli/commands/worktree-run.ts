// `ironbees run --worktree`: the run works in a git worktree of its own, on branch
// `ironbees/<runId>` made from the last commit, and commits each applied iteration there with the
// coder's summary as the message. The person's working tree is never written; the run's lock, build
// output (obj/, bin/) and build servers are the worktree's own. Whatever the end (success, failure,
// Ctrl-C, an error), the run folder is kept in the workspace's `.ironbees/runs/`, the worktree is
// removed and the branch stays only when it is worth keeping (worktree-session.ts, worktree-runs.ts).

import * as path from 'node:path';
import { GitRepo } from '../../core/workspace/git-worktrees';
import { closeWorktreeSession, openWorktreeSession, worktreeBase } from '../../core/workflow/worktree-session';
import type { RunArgs } from '../args';
import { writeLine } from '../terminal';
import { cliWorkspaceTrust } from '../workspace-trust';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { runCommand } from './run';

/** An absolute --target in the person's workspace names the same file in the worktree. */
function targetIn(args: RunArgs): string | undefined {
  if (!args.target || !path.isAbsolute(args.target)) return args.target;
  return path.relative(args.workspace, args.target);
}

export async function runInWorktree(ctx: CommandContext, args: RunArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const repo = await GitRepo.open(ctx.deps.createHost(args.workspace, ctx.logger).process, args.workspace);
  await worktreeBase(repo);
  // Trust is the person's workspace's: the worktree is a copy of its last commit.
  const trusted = await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true });
  const session = await openWorktreeSession(repo, args.workspace, args.worktreesDir);
  try {
    writeLine(
      ctx.io.stderr,
      `Run ${session.runId} works in ${session.record.path} on branch ${session.record.branch} (from ${session.base.slice(0, 10)}); your working tree is not touched.`,
    );
    if (session.localChanges)
      writeLine(ctx.io.stderr, ctx.colors.yellow('Your uncommitted changes are not part of it: the worktree starts from the last commit.'));
    const target = targetIn(args);
    const code = await runCommand(
      ctx,
      { ...args, workspace: session.workspace, worktree: false, ...(target !== undefined ? { target } : {}) },
      { runId: session.runId, trusted, states: session.commits.states },
    );
    // On the normal end a failing commit is an error the person sees; after a failure it is best effort.
    await session.commits.commitRest();
    return code;
  } finally {
    const end = await closeWorktreeSession(repo, args.workspace, session);
    for (const line of end.lines) writeLine(ctx.io.stderr, line);
  }
}
