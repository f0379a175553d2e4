// A phase's compile check (the gate at submit_changes, check_code) answered by the run's own C# engine,
// already loaded on the person's workspace, instead of a fresh engine per worktree loading the same
// solution again (on a small machine, three loads at once are what the phases' coders then wait for).
// The engine sees the person's files; the check is told, as staged text, every C# file in which the
// phase's worktree differs from them (what earlier phases merged, the phase's applied iterations, and
// any uncommitted change of the person's, put back as the phase sees it), then the phase's own staged
// edits on top. Paths are workspace-relative in both trees, which sit at the same place in their
// checkouts. What the check cannot see this way (a project file the phase changed) is answered
// "unknown" by the engine, as for any staged build input; the phase's build decides there.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CodeCheckOptions, CodeCheckResult, CodeChecker } from '../host';
import type { GitRepo } from '../workspace/git-worktrees';
import { filterInsideWorkspace } from '../workspace/paths';

/** Set IRONBEES_PHASE_SHARED_ENGINE=0 to give each phase a C# engine of its own. */
export function sharedEngineEnabled(): boolean {
  return process.env.IRONBEES_PHASE_SHARED_ENGINE !== '0';
}

const SOURCE = /\.cs$/i;
/** Build output and Ironbees' own folders: never sources of the solution. */
const NOT_SOURCE = /(^|\/)(obj|bin|\.ironbees|\.git)\//i;
/** A bigger source is left as the engine sees it on disk: the phase's build decides there. */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

export interface PhaseTrees {
  repo: GitRepo;
  /** The person's workspace, where the run's engine is loaded. */
  main: string;
  /** The phase's workspace inside its worktree. */
  phase: string;
  /** The commit both started from. */
  base: string;
}

/** A CodeChecker for the phase in `trees.phase` that asks `engine` (the run's, on `trees.main`). */
export function phaseCodeCheck(engine: CodeChecker, trees: PhaseTrees): CodeChecker {
  return {
    async check(files, options?: CodeCheckOptions): Promise<CodeCheckResult> {
      const staged = new Set(files.map((file) => file.path));
      const differing = (await differingSources(trees)).filter((file) => !staged.has(file));
      const asThePhaseSeesIt = await Promise.all(differing.map(async (file) => ({ path: file, text: await phaseText(trees.phase, file) })));
      const known = asThePhaseSeesIt.filter((file): file is { path: string; text: string | null } => file.text !== undefined);
      return engine.check([...known, ...files], options);
    },
    warmUp: () => engine.warmUp?.(),
  };
}

/** Workspace-relative C# files that may differ between the two trees: changed or new in either since `base`. */
export async function differingSources(trees: PhaseTrees): Promise<string[]> {
  const listed = await Promise.all(
    [trees.main, trees.phase].flatMap((dir) => [
      trees.repo.git(['--no-optional-locks', 'diff', '--name-only', '--relative', '--no-renames', '-z', trees.base], dir),
      trees.repo.git(['--no-optional-locks', 'ls-files', '--others', '--exclude-standard', '-z'], dir),
    ]),
  );
  const files = new Set(listed.flatMap((out) => out.split('\0')).filter((file) => SOURCE.test(file) && !NOT_SOURCE.test(file)));
  // Both trees' containment check: a name git lists that leads out of either is left out.
  return filterInsideWorkspace(trees.main, filterInsideWorkspace(trees.phase, [...files].sort()));
}

/** The file's text in the phase's tree; null when it is not there; undefined when it is no regular file of a readable size. */
async function phaseText(root: string, file: string): Promise<string | null | undefined> {
  let stat;
  try {
    stat = await fs.lstat(path.join(root, file));
  } catch {
    return null;
  }
  if (!stat.isFile() || stat.size > MAX_SOURCE_BYTES) return undefined;
  return fs.readFile(path.join(root, file), 'utf8').catch(() => undefined);
}
