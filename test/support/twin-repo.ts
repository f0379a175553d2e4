// A repository whose phase worktree holds one file of each kind against its main-workspace twin:
// identical (Same.cs, .gitattributes), changed on the integration branch (Branch.cs) or added there
// (Added.cs), modified but not staged in main (Modified.cs), staged in main (Staged.cs), and two files
// under a smudge filter (`*.up`: upper-cases on checkout), one it changes (Shout.up) and one it leaves
// as is (Digits.up). Every change keeps the file's size, so only its content tells it apart.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GitRepo } from '../../src/core/workspace/git-worktrees';
import type { ProcessRunner } from '../../src/core/host';
import { NodeProcessRunner } from '../../src/host/node/process-runner';

/** The time the main workspace's files carry: a warmed twin of one of them carries it too. */
export const TWIN_TIME = new Date('2024-03-01T10:00:00.250Z');

export interface TwinRepo {
  /** The temporary folder holding both trees (remove it after). */
  root: string;
  main: string;
  /** The phase worktree, on branch `phase` from `integration`. */
  tree: string;
  repo: GitRepo;
}

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@localhost', '-c', 'user.name=T', ...args], { cwd, encoding: 'utf8' });
}

/** Sets up the repository and its phase worktree; `runner` answers the GitRepo's commands. */
export async function twinRepo(runner: ProcessRunner = new NodeProcessRunner()): Promise<TwinRepo> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-twins-')));
  const main = path.join(root, 'main');
  const integration = path.join(root, 'integration');
  const tree = path.join(root, 'tree');
  const put = (dir: string, file: string, text: string): void => writeFileSync(path.join(dir, file), text);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', main]);
  gitIn(main, 'config', 'filter.upper.smudge', 'tr a-z A-Z');
  gitIn(main, 'config', 'filter.upper.clean', 'cat');
  put(main, '.gitattributes', '*.up filter=upper\n');
  for (const name of ['Same', 'Branch', 'Modified', 'Staged']) put(main, `${name}.cs`, 'class a {}');
  put(main, 'Shout.up', 'class s {}');
  put(main, 'Digits.up', '1234 5678');
  gitIn(main, 'add', '-A');
  gitIn(main, 'commit', '--quiet', '-m', 'base');
  gitIn(main, 'worktree', 'add', '--quiet', '-b', 'integration', integration);
  put(integration, 'Branch.cs', 'class b {}');
  put(integration, 'Added.cs', 'class n {}');
  gitIn(integration, 'add', 'Branch.cs', 'Added.cs');
  gitIn(integration, 'commit', '--quiet', '-m', 'merged phase');
  gitIn(main, 'worktree', 'add', '--quiet', '-b', 'phase', tree, 'integration');
  put(main, 'Modified.cs', 'class m {}');
  put(main, 'Staged.cs', 'class t {}');
  gitIn(main, 'add', 'Staged.cs');
  for (const file of ['.gitattributes', 'Same.cs', 'Branch.cs', 'Modified.cs', 'Staged.cs', 'Shout.up', 'Digits.up'])
    utimesSync(path.join(main, file), TWIN_TIME, TWIN_TIME);
  return { root, main, tree, repo: await GitRepo.open(runner, main) };
}
