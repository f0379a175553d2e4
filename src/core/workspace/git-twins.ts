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
/** Characters of paths per command line, well within the system's limit (Windows allows 32,767). */
const ARGUMENT_BUDGET = process.platform === 'win32' ? 24_000 : 200_000;

/** The tracked files of the worktree at `top` (a checkout of `repo`), sorted by what git knows of their twins. */
export async function twinsByGit(repo: GitRepo, top: string): Promise<GitTwins> {
  // The questions that do not need the list of files go at once, beside it.
  const account = Promise.all([differingFiles(repo, top), unsureInMain(repo)]);
  account.catch(() => undefined);
  const tracked = nulList(await repo.git(['ls-files', '-z'], top));
  try {
    const [[differ, unsure], attributed] = await Promise.all([account, convertedFiles(repo, top, tracked)]);
    const same = new Set<string>();
    const compare = new Set<string>();
    for (const file of tracked) {
      if (differ.has(file)) continue;
      if (unsure === 'all' || unsure.has(file) || attributed.has(file)) compare.add(file);
      else same.add(file);
    }
    return { tracked, same, compare };
  } catch {
    return { tracked, same: new Set(), compare: new Set(tracked) };
  }
}

/** Files whose bytes can differ from their twin's whatever the conversions: other blobs, or changed in main. */
async function differingFiles(repo: GitRepo, top: string): Promise<Set<string>> {
  const branch = async (): Promise<string[]> => {
    const mainHead = (await repo.git(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    return nulList(await repo.git(['diff-tree', '-r', '-z', '--name-only', '--no-renames', mainHead, 'HEAD'], top));
  };
  // Staged or changed in main's working tree (porcelain v1: two status letters, a space, the path).
  const main = async (): Promise<string[]> =>
    nulList(await repo.git(['status', '--porcelain', '-z', '--untracked-files=no', '--no-renames', '--ignore-submodules=all'])).map(
      (entry) => entry.slice(3),
    );
  const [changed, dirty] = await Promise.all([branch(), main()]);
  return new Set([...changed, ...dirty]);
}

/** Files of main's index git's status does not look at, or 'all' when core.autocrlf converts every text file. */
async function unsureInMain(repo: GitRepo): Promise<Set<string> | 'all'> {
  const [autocrlf, index] = await Promise.all([
    repo.git(['config', '--default', 'false', '--get', 'core.autocrlf']),
    repo.git(['ls-files', '-v', '-z']),
  ]);
  if (!['false', 'no', 'off', '0', ''].includes(autocrlf.trim().toLowerCase())) return 'all';
  const unsure = new Set<string>();
  // A lower-case tag is assume-unchanged, S skip-worktree.
  for (const entry of nulList(index)) {
    const tag = entry.charAt(0);
    if (tag === 'S' || tag !== tag.toUpperCase()) unsure.add(entry.slice(2));
  }
  return unsure;
}

/** Files a converting attribute applies to, in main's working tree or in the worktree. */
async function convertedFiles(repo: GitRepo, top: string, tracked: readonly string[]): Promise<Set<string>> {
  const converted = new Set<string>();
  const ask = async (dir: string): Promise<void> => {
    for (const paths of argumentChunks(tracked)) {
      // Triples of path, attribute, value (a value may be empty: the fields are kept as they come).
      const fields = (await repo.git(['check-attr', '-z', ...CONVERTING_ATTRIBUTES, '--', ...paths], dir)).split('\0');
      for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] !== 'unspecified') converted.add(fields[i]);
    }
  };
  await Promise.all([ask(repo.root), ask(top)]);
  return converted;
}

/** `paths` in runs of at most `budget` characters (each counted with 3 more for its quotes and space), in order. */
export function argumentChunks(paths: readonly string[], budget = ARGUMENT_BUDGET): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = 0;
  for (const file of paths) {
    if (chunk.length > 0 && length + file.length + 3 > budget) {
      chunks.push(chunk);
      chunk = [];
      length = 0;
    }
    chunk.push(file);
    length += file.length + 3;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

function nulList(text: string): string[] {
  return text.split('\0').filter(Boolean);
}
