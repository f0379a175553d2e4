// Which files of a fresh worktree are byte-identical to their twin in the repository's main working
// tree, told by git instead of by reading both copies. A file is the same when
//  - main's working tree has it unmodified against main's HEAD (neither staged nor changed, and not
//    hidden from git by assume-unchanged or skip-worktree), and
//  - its blob at main's HEAD is its blob at the worktree's HEAD (the worktree is a fresh checkout:
//    nothing has written to it yet).
// Equal blobs are equal bytes only where git converts nothing on the way: a file with a filter, eol,
// text, ident or working-tree-encoding attribute (in either tree), or every file when core.autocrlf is
// on, is left to a comparison of content. When git cannot answer at all, every file is.

import type { GitRepo } from './git-worktrees';

/** The worktree's tracked files, and what git can say of each against its main-workspace twin. */
export interface GitTwins {
  /** Every file the worktree tracks, relative to its top. */
  tracked: string[];
  /** Identical to the twin by git's account: no need to read either. */
  same: Set<string>;
  /** Git cannot vouch for them (a conversion, a flag, git failing): compare their content. */
  compare: Set<string>;
  // Every other tracked file differs from its twin (or has none).
}

const CONVERTING_ATTRIBUTES = ['text', 'eol', 'crlf', 'filter', 'ident', 'working-tree-encoding'];
/** Paths per `git check-attr` call, to stay far below the system's argument limit. */
const ATTR_CHUNK = 500;

/** The tracked files of the worktree at `top` (a checkout of `repo`), sorted by what git knows of their twins. */
export async function twinsByGit(repo: GitRepo, top: string): Promise<GitTwins> {
  const tracked = nulList(await repo.git(['ls-files', '-z'], top));
  try {
    const differ = await differingFiles(repo, top);
    const unsure = await unsureFiles(repo, top, tracked);
    const same = new Set<string>();
    const compare = new Set<string>();
    for (const file of tracked) {
      if (differ.has(file)) continue;
      if (unsure === 'all' || unsure.has(file)) compare.add(file);
      else same.add(file);
    }
    return { tracked, same, compare };
  } catch {
    return { tracked, same: new Set(), compare: new Set(tracked) };
  }
}

/** Files whose bytes can differ from their twin's whatever the conversions: other blobs, or changed in main. */
async function differingFiles(repo: GitRepo, top: string): Promise<Set<string>> {
  const mainHead = (await repo.git(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  const treeHead = (await repo.git(['rev-parse', '--verify', 'HEAD^{commit}'], top)).trim();
  const differ = new Set<string>();
  if (mainHead !== treeHead) {
    for (const file of nulList(await repo.git(['diff-tree', '-r', '-z', '--name-only', '--no-renames', mainHead, treeHead]))) {
      differ.add(file);
    }
  }
  // Staged or changed in main's working tree (porcelain v1: two status letters, a space, the path).
  const status = await repo.git(['status', '--porcelain', '-z', '--untracked-files=no', '--no-renames', '--ignore-submodules=all']);
  for (const entry of nulList(status)) differ.add(entry.slice(3));
  return differ;
}

/** Files git's account cannot be trusted for, or 'all' (core.autocrlf converts every text file). */
async function unsureFiles(repo: GitRepo, top: string, tracked: readonly string[]): Promise<Set<string> | 'all'> {
  const autocrlf = (await repo.git(['config', '--default', 'false', '--get', 'core.autocrlf'])).trim().toLowerCase();
  if (!['false', 'no', 'off', '0', ''].includes(autocrlf)) return 'all';
  const unsure = new Set<string>();
  // In main's index: a lower-case tag is assume-unchanged, S skip-worktree; git's status does not look at either.
  for (const entry of nulList(await repo.git(['ls-files', '-v', '-z']))) {
    const tag = entry.charAt(0);
    if (tag === 'S' || tag !== tag.toUpperCase()) unsure.add(entry.slice(2));
  }
  for (const dir of [repo.root, top]) {
    for (let start = 0; start < tracked.length; start += ATTR_CHUNK) {
      const paths = tracked.slice(start, start + ATTR_CHUNK);
      // Triples of path, attribute, value (a value may be empty: the fields are kept as they come).
      const out = (await repo.git(['check-attr', '-z', ...CONVERTING_ATTRIBUTES, '--', ...paths], dir)).split('\0');
      for (let i = 0; i + 2 < out.length; i += 3) if (out[i + 2] !== 'unspecified') unsure.add(out[i]);
    }
  }
  return unsure;
}

function nulList(text: string): string[] {
  return text.split('\0').filter(Boolean);
}
