// Before a command: what a run killed outright left behind (a `run --worktree`'s worktree, maybe an empty
// branch; a `--parallel` run's worktrees) is cleaned, and the person is told. Cheap when there is nothing.

import * as fs from 'node:fs';
import { errorMessage } from '../../core/errors';
import { GitRepo } from '../../core/workspace/git-worktrees';
import { cleanLeftoverWorktrees, listRecords, needsCleaning, worktreesDir } from '../../core/workflow/worktree-runs';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';

export async function cleanLeftovers(ctx: CommandContext, workspace: string): Promise<void> {
  if (!fs.existsSync(worktreesDir(workspace))) return;
  if (!listRecords(workspace).some((record) => needsCleaning(workspace, record))) return;
  try {
    const repo = await GitRepo.open(ctx.deps.createHost(workspace, ctx.logger).process, workspace);
    for (const line of await cleanLeftoverWorktrees(repo, workspace)) writeLine(ctx.io.stderr, ctx.colors.yellow(line));
  } catch (error) {
    ctx.logger.warn(`Could not clean up after a stopped worktree run: ${errorMessage(error)}`);
  }
}
