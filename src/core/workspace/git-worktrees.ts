// Git worktrees through the git CLI and the host's process runner (so a child never sees the
// person's credentials): create a worktree on a new branch, commit in it, merge a branch into an
// integration branch (a conflict is reported with both sides and the merge undone: never resolved
// here), remove it. One run uses it for `run --worktree`; a phase scheduler can use the same calls.
//
// The repository is not trusted: its hooks (post-checkout, pre-commit, …) and an fsmonitor command
// never run, and no commit asks for a signature (a pinentry prompt would hang a run).

import * as os from 'node:os';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { AgentModeError, ConfigurationError } from '../errors';
import type { ProcessRunner } from '../host';

const GIT_TIMEOUT_MS = 120_000;

/** What every git command of ours is given before its own arguments. */
function safeConfig(): string[] {
  return ['-c', `core.hooksPath=${os.devNull}`, '-c', 'core.fsmonitor=false', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false'];
}

const GIT_ENV: Record<string, string> = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };

export class GitError extends AgentModeError {
  constructor(args: readonly string[], stderr: string) {
    super(`git ${args.join(' ')} failed: ${stderr.trim() || 'no message'}`, 'GIT_FAILED', { args: [...args] });
  }
}

export interface WorktreeInfo {
  path: string;
  /** `refs/heads/…` stripped; absent for a detached HEAD. */
  branch?: string;
  head: string;
}

export interface ChangedFile {
  /** Repository-relative, forward slashes. */
  path: string;
  status: 'A' | 'M' | 'D';
}

export interface MergeConflict {
  path: string;
  /** The file in the merge base; null when both sides added it. */
  base: string | null;
  /** The integration branch's side; null when that side deleted it. */
  ours: string | null;
  /** The merged branch's side; null when that side deleted it. */
  theirs: string | null;
}

export type MergeResult = { merged: true; commit: string } | { merged: false; conflicts: MergeConflict[] };

export class GitRepo {
  private constructor(
    private readonly runner: ProcessRunner,
    /** The top of the working tree the repository was opened from. */
    readonly root: string,
  ) {}

  /** The repository `dir` is in; a ConfigurationError when it is in none. */
  static async open(runner: ProcessRunner, dir: string): Promise<GitRepo> {
    const result = await runner.run('git', [...safeConfig(), 'rev-parse', '--show-toplevel'], {
      cwd: dir,
      timeoutMs: GIT_TIMEOUT_MS,
      env: GIT_ENV,
    });
    if (result.exitCode !== 0)
      throw new ConfigurationError(`${dir} is not in a git repository; a worktree needs one (git init, then commit).`);
    return new GitRepo(runner, path.resolve(result.stdout.trim()));
  }

  /** Runs git in `cwd` (default: the repository's top); throws GitError on a non-zero exit. */
  async git(args: readonly string[], cwd: string = this.root): Promise<string> {
    const result = await this.tryGit(args, cwd);
    if (result.exitCode !== 0) throw new GitError(args, result.stderr || result.stdout);
    return result.stdout;
  }

  private async tryGit(args: readonly string[], cwd: string): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
    const result = await this.runner.run('git', [...safeConfig(), ...args], { cwd, timeoutMs: GIT_TIMEOUT_MS, env: GIT_ENV });
    if (result.timedOut) throw new GitError(args, 'timed out');
    return result;
  }

  /** The commit a ref names, or null when it names none (an unborn HEAD, an unknown branch). */
  async commitOf(ref: string): Promise<string | null> {
    const result = await this.tryGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], this.root);
    return result.exitCode === 0 ? result.stdout.trim() : null;
  }

  /** The repository's shared folder (where `info/exclude` lives), for a worktree too. */
  async commonDir(): Promise<string> {
    return path.resolve(this.root, (await this.git(['rev-parse', '--git-common-dir'])).trim());
  }

  /** Adds `pattern` to `.git/info/exclude` (the person's .gitignore is never edited) unless it is there. */
  async exclude(pattern: string): Promise<void> {
    const file = path.join(await this.commonDir(), 'info', 'exclude');
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current.split(/\r?\n/).includes(pattern)) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const separator = current && !current.endsWith('\n') ? '\n' : '';
    fs.appendFileSync(file, `${separator}# Ironbees worktrees\n${pattern}\n`);
  }

  /** A new worktree at `dir` on the new branch `branch`, starting at `from` (a commit or ref). */
  async addWorktree(dir: string, branch: string, from: string): Promise<void> {
    await this.git(['worktree', 'add', '--quiet', '-b', branch, dir, from]);
  }

  /** A worktree at `dir` on the existing branch `branch` (to go on with a run's branch). */
  async checkoutWorktree(dir: string, branch: string): Promise<void> {
    await this.git(['worktree', 'add', '--quiet', dir, branch]);
  }

  /** Removes the worktree (its untracked and ignored files too: obj/, bin/) and forgets it. */
  async removeWorktree(dir: string): Promise<void> {
    if (fs.existsSync(dir)) {
      try {
        await this.git(['worktree', 'remove', '--force', '--force', dir]);
      } catch (error) {
        // A process of the run still ending (a restore, a build server) can write into the folder while
        // git deletes it ("Directory not empty"): the folder goes as git would have removed it, retried.
        if (!fs.existsSync(dir)) throw error;
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      }
    }
    await this.git(['worktree', 'prune']);
  }

  async listWorktrees(): Promise<WorktreeInfo[]> {
    const out = await this.git(['worktree', 'list', '--porcelain']);
    const list: WorktreeInfo[] = [];
    for (const block of out.split(/\n\n+/)) {
      const lines = block.split('\n');
      const dir = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
      if (!dir) continue;
      const head = lines.find((l) => l.startsWith('HEAD '))?.slice(5) ?? '';
      const branch = lines.find((l) => l.startsWith('branch '))?.slice('branch refs/heads/'.length);
      list.push({ path: dir, head, ...(branch ? { branch } : {}) });
    }
    return list;
  }

  async deleteBranch(branch: string): Promise<void> {
    await this.git(['branch', '-D', '--quiet', branch]);
  }

  /** How many commits `branch` has that `base` has not. */
  async commitsAhead(base: string, branch: string): Promise<number> {
    return Number((await this.git(['rev-list', '--count', `${base}..${branch}`])).trim());
  }

  /**
   * Commits exactly `files` (relative to `dir`; new, changed or deleted), whatever else the worktree
   * holds (build output of a repository without a .gitignore); null when none of them changed.
   */
  async commitFiles(dir: string, message: string, files: readonly string[]): Promise<string | null> {
    if (files.length === 0) return null;
    // Literal paths: a file named like a pathspec pattern is that file only.
    await this.git(['--literal-pathspecs', 'add', '-A', '--', ...files], dir);
    return this.commitStaged(dir, message);
  }

  /** Commits what is staged plus every change to a tracked file; a file git does not track stays out. */
  async commitTracked(dir: string, message: string): Promise<string | null> {
    await this.git(['add', '-u'], dir);
    return this.commitStaged(dir, message);
  }

  private async commitStaged(dir: string, message: string): Promise<string | null> {
    const staged = await this.tryGit(['diff', '--cached', '--quiet'], dir);
    if (staged.exitCode === 0) return null;
    await this.git([...(await this.identityFallback(dir)), 'commit', '--quiet', '--no-verify', '-m', message], dir);
    return (await this.git(['rev-parse', 'HEAD'], dir)).trim();
  }

  /** A name and address for commits where the person configured none (a fresh machine, CI). */
  private async identityFallback(dir: string): Promise<string[]> {
    const email = await this.tryGit(['config', 'user.email'], dir);
    const name = await this.tryGit(['config', 'user.name'], dir);
    const args: string[] = [];
    if (email.exitCode !== 0 || !email.stdout.trim()) args.push('-c', 'user.email=ironbees@localhost');
    if (name.exitCode !== 0 || !name.stdout.trim()) args.push('-c', 'user.name=Ironbees');
    return args;
  }

  /**
   * Merges `branch` into the branch checked out at `integrationDir` with a merge commit. On a
   * conflict the merge is aborted (the integration branch stays as it was) and every conflicted
   * file is returned with its base, ours and theirs, for a coder or a person to resolve.
   */
  async merge(integrationDir: string, branch: string, message: string): Promise<MergeResult> {
    const identity = await this.identityFallback(integrationDir);
    const result = await this.tryGit([...identity, 'merge', '--no-ff', '--no-edit', '-m', message, branch], integrationDir);
    if (result.exitCode === 0) return { merged: true, commit: (await this.git(['rev-parse', 'HEAD'], integrationDir)).trim() };
    const unmerged = (await this.git(['diff', '--name-only', '-z', '--diff-filter=U'], integrationDir)).split('\0').filter(Boolean);
    if (unmerged.length === 0) throw new GitError(['merge', branch], result.stderr || result.stdout);
    const conflicts: MergeConflict[] = [];
    for (const file of unmerged) {
      conflicts.push({
        path: file,
        base: await this.stage(integrationDir, 1, file),
        ours: await this.stage(integrationDir, 2, file),
        theirs: await this.stage(integrationDir, 3, file),
      });
    }
    await this.git(['merge', '--abort'], integrationDir);
    return { merged: false, conflicts };
  }

  private async stage(dir: string, stage: 1 | 2 | 3, file: string): Promise<string | null> {
    const result = await this.tryGit(['show', `:${stage}:${file}`], dir);
    return result.exitCode === 0 ? result.stdout : null;
  }

  /** The files `to` changes against `from` (renames as a delete and an add), under `under` when given. */
  async changedFiles(from: string, to: string, under?: string): Promise<ChangedFile[]> {
    const out = await this.git(['diff', '--name-status', '--no-renames', '-z', from, to, '--', under ?? '.']);
    const parts = out.split('\0').filter(Boolean);
    const files: ChangedFile[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i].charAt(0);
      if (status === 'A' || status === 'M' || status === 'D') files.push({ status, path: parts[i + 1] });
      else files.push({ status: 'M', path: parts[i + 1] });
    }
    return files;
  }

  /** The unified diff of one file between two commits. */
  async diffText(from: string, to: string, file: string): Promise<string> {
    return this.git(['diff', '--no-color', '--no-renames', from, to, '--', file]);
  }

  /** The blob id of `file` in `ref`, or null when the ref has no such file. */
  async blobAt(ref: string, file: string): Promise<string | null> {
    const result = await this.tryGit(['rev-parse', '--verify', '--quiet', `${ref}:${file}`], this.root);
    return result.exitCode === 0 ? result.stdout.trim() : null;
  }

  /** The blob id the working tree's `file` would have, or null when it does not exist. */
  async workingBlob(file: string): Promise<string | null> {
    if (!fs.existsSync(path.join(this.root, file))) return null;
    return (await this.git(['hash-object', '--', file])).trim();
  }

  /** Writes `ref`'s version of `file` into the working tree only (the index is left alone). */
  async restoreFromRef(ref: string, file: string): Promise<void> {
    await this.git(['restore', `--source=${ref}`, '--worktree', '--', file]);
  }

  /** Short `git status` lines of the working tree; empty when it is clean. */
  async status(dir: string = this.root): Promise<string[]> {
    return (await this.git(['status', '--porcelain'], dir)).split('\n').filter(Boolean);
  }
}
