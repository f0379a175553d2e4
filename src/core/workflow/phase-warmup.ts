// A phase's worktree starts from the main workspace's build output (dotnet/warm-worktree.ts): its
// first build then compiles only the projects its change affects. Warming is an optimisation: when it
// fails the worktree simply builds cold, so its failure is never the phase's.

import { warmWorktree } from '../dotnet/warm-worktree';
import type { WarmWorktree } from '../dotnet/warm-worktree';
import { twinsByGit } from '../workspace/git-twins';
import type { GitRepo } from '../workspace/git-worktrees';

/** Set IRONBEES_WARM_WORKTREES=0 to start phase worktrees cold (each builds every project it needs). */
export function warmWorktreesEnabled(): boolean {
  return process.env.IRONBEES_WARM_WORKTREES !== '0';
}

/** Warms the worktree at `top` (a checkout of `repo`) from the repository's main working tree; null when off or failed. */
export async function warmPhaseTree(repo: GitRepo, top: string): Promise<WarmWorktree | null> {
  if (!warmWorktreesEnabled()) return null;
  try {
    // Git tells which checked-out files equal their twin, so their content is read only where it cannot.
    const twins = await twinsByGit(repo, top);
    return await warmWorktree(repo.root, top, twins.tracked, twins);
  } catch {
    return null;
  }
}
