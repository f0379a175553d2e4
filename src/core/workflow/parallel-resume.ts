// Which phases a resumed `--parallel` run does not run again. An attempt killed while its phases
// worked keeps its integration branch (worktree-runs.ts), and the resume makes its worktree again from
// it (parallel-worktrees.ts). The branch's own merge commits ("Merge phase <id>: <name>", one per
// phase merged) say what is in it; the phases as the run last showed them say how each ended (its
// iterations, its hand-off). A phase counts as done only when both agree; from the first merge that
// does not, the branch is set back to before it, and that phase and every phase merged after it run
// again, each said in a line.

import type { PlanPhase } from '../model';
import type { PhaseRun } from './phase-states';
import type { ParallelWorktrees } from './parallel-worktrees';

interface MergeCommit {
  commit: string;
  parents: number;
  message: string;
}

/** The phases kept from the earlier attempt, complete as it showed them; none for a run that starts its phases afresh. */
export async function phasesMergedBefore(
  trees: ParallelWorktrees,
  phases: readonly PlanPhase[],
  say: (line: string) => void,
): Promise<PhaseRun[]> {
  const earlier = trees.earlier;
  if (!earlier) return [];
  const { path: dir, branch } = trees.integration.record;
  const kept: PhaseRun[] = [];
  let keepTo = trees.base;
  let broken: string | null = null;
  const told = new Set<string>();
  for (const merge of await mergesOn(trees, dir)) {
    const phase = phases.find((p) => merge.message === `Merge phase ${p.id}: ${p.name}`);
    const name = phase ? `phase ${phase.name} (${phase.id})` : `commit ${merge.commit.slice(0, 12)}`;
    if (phase) told.add(phase.id);
    if (broken) {
      if (phase) say(`${name}: its merge on ${branch} came after ${broken}, which is not kept; it runs again`);
      continue;
    }
    const saved = earlier.find((state) => state.phaseId === phase?.id);
    if (!phase || merge.parents !== 2 || kept.some((run) => run.phaseId === phase.id) || saved?.status !== 'complete') {
      broken = name;
      const why =
        !phase || merge.parents !== 2 ? 'is no merge of a phase of this plan' : 'is merged, but the run had not shown it complete';
      say(`${name} on ${branch} ${why}; the branch is set back to before it and it runs again`);
      continue;
    }
    const { worktree: _worktree, error: _error, ...shown } = saved;
    kept.push({ ...shown, firstIteration: null });
    keepTo = merge.commit;
  }
  if (broken) await trees.repo.git(['reset', '--hard', '--quiet', keepTo], dir);
  for (const state of earlier) {
    if (state.status === 'complete' && !told.has(state.phaseId) && phases.some((p) => p.id === state.phaseId)) {
      say(`phase ${state.name} (${state.phaseId}): shown complete, but its merge is not on ${branch}; it runs again`);
    }
  }
  for (const run of kept) say(`phase ${run.name} (${run.phaseId}): merged on ${branch} before the run stopped; it is not run again`);
  return kept;
}

/** The commits on the integration branch since the phases' base, oldest first, along its own line. */
async function mergesOn(trees: ParallelWorktrees, dir: string): Promise<MergeCommit[]> {
  const out = await trees.repo.git(['log', '--first-parent', '--reverse', '--format=%H%x01%P%x01%B%x02', `${trees.base}..HEAD`], dir);
  return out
    .split('\x02')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [commit = '', parents = '', message = ''] = entry.split('\x01');
      return { commit: commit.trim(), parents: parents.trim().split(/\s+/).filter(Boolean).length, message: message.trim() };
    });
}
