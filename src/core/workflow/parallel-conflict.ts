// A phase whose merge conflicts (`--parallel N`) gets a second attempt before anyone is asked: a
// worktree of its own from the integration branch as merged so far, with the phase's branch merged
// into it and each conflicting file left with both sides between git's conflict markers (committed,
// so the phase's run starts from a clean worktree). Its coder is told the files, both sides and its
// first attempt's summary (the other phases' summaries come with the completed phases), and must
// leave each file holding both changes. Nothing is picked for it: a file still holding a conflict
// marker, a second attempt that does not succeed or whose merge conflicts again goes to the person.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlanPhase } from '../model';
import type { MergeConflict } from '../workspace/git-worktrees';
import type { ParallelTree, ParallelWorktrees } from './parallel-worktrees';

const MAX_SIDE_CHARS = 4_000;
/** A line git writes around the two sides of a conflict. */
const MARKER = /^(<{7}|>{7})( |$)|^={7}$/m;

/** A phase's first attempt whose merge conflicted: what its second attempt starts from. */
export interface PhaseConflict {
  conflicts: MergeConflict[];
  /** The first attempt's worktree (its branch is merged into the second's, then it is ended). */
  tree: ParallelTree;
  /** The first attempt's coder summary. */
  summary: string;
}

/** The second attempt's worktree, made from the integration branch with the first attempt's branch merged in, conflicts and all. */
export async function conflictTree(trees: ParallelWorktrees, slug: string, phase: PlanPhase, first: ParallelTree): Promise<ParallelTree> {
  const tree = await trees.addPhase(`${slug}-merge`);
  await trees.serial(async () => {
    const dir = tree.record.path;
    try {
      await trees.repo.git(['merge', '--no-ff', '--no-commit', first.record.branch], dir);
    } catch (error) {
      // A conflict is what is expected here; anything else is an error.
      const unmerged = await trees.repo.git(['diff', '--name-only', '--diff-filter=U'], dir);
      if (!unmerged.trim()) throw error;
    }
    // The merge as git staged it, the conflicting files with their markers: never the worktree's build
    // output (a repository without a .gitignore would otherwise commit the warm copy's obj/ and bin/).
    await trees.repo.commitTracked(dir, `Merge phase ${phase.id}: ${phase.name} (conflicts left for its coder)`);
  });
  return tree;
}

/** What the phase's coder is told on its second attempt. */
export function conflictBrief(phase: PlanPhase, conflict: PhaseConflict, tree: ParallelTree): string {
  const files = conflict.conflicts.map((c) => workspacePath(tree, c.path));
  const parts = [
    `# Merge conflict to resolve`,
    `Phase "${phase.id}" (${phase.name}) was done once, but its change conflicts with the phases merged before it in ${files.join(', ')}. ` +
      'This workspace holds the phases merged so far with your phase merged in; in each of those files both sides are left between ' +
      "git's conflict markers (<<<<<<<, =======, >>>>>>>). Edit each so that it holds both changes, with no conflict marker left; " +
      'the rest of your phase is already here.',
    `Your first attempt's summary: ${conflict.summary}`,
  ];
  conflict.conflicts.forEach((c, index) => {
    parts.push(`--- ${files[index]}, as merged so far (ours):\n${side(c.ours)}`);
    parts.push(`--- ${files[index]}, as your first attempt left it (theirs):\n${side(c.theirs)}`);
  });
  return parts.join('\n\n');
}

/** The conflicting files (workspace-relative) that still hold a conflict marker in the second attempt's worktree. */
export function unresolvedFiles(conflicts: readonly MergeConflict[], tree: ParallelTree): string[] {
  return conflicts
    .filter((c) => {
      const file = path.join(tree.record.path, c.path);
      return fs.existsSync(file) && MARKER.test(fs.readFileSync(file, 'utf8'));
    })
    .map((c) => workspacePath(tree, c.path));
}

/** The conflict, file by file with both sides, for the person to resolve (nothing was merged). */
export function conflictMessage(phase: PlanPhase, conflicts: readonly MergeConflict[]): string {
  const files = conflicts.map((c) => c.path);
  const parts = [
    `Merging phase "${phase.id}" (${phase.name}) conflicts with the phases merged before it in ${files.join(', ')}; nothing was resolved and the merge was undone.`,
  ];
  for (const conflict of conflicts) {
    parts.push(`--- ${conflict.path}, as merged so far (ours):\n${side(conflict.ours)}`);
    parts.push(`--- ${conflict.path}, as phase "${phase.id}" left it (theirs):\n${side(conflict.theirs)}`);
  }
  return parts.join('\n\n');
}

function side(text: string | null): string {
  if (text === null) return '(deleted)';
  return text.length > MAX_SIDE_CHARS ? `${text.slice(0, MAX_SIDE_CHARS)}…` : text;
}

function workspacePath(tree: ParallelTree, repoPath: string): string {
  return path.relative(tree.workspace, path.join(tree.record.path, repoPath)).split(path.sep).join('/');
}
