// A phase's fresh git worktree (`--parallel N`) starts warm: the main workspace's build output is
// COPIED into it (never linked or shared: each worktree keeps an obj/ of its own), and every checked-out
// file byte-identical to its main-workspace twin (as git tells, or by its content where git cannot)
// gets that twin's timestamps back (git gives checked-out files the current time, which would make
// MSBuild rebuild every project).
// MSBuild's own incremental checks then decide what to build: a project whose inputs are unchanged is
// up to date, an edited one is newer than its output and is compiled again.
//
// What names the main workspace's folders is not carried over as is:
//  - restore outputs (project.assets.json, *.nuget.dgspec.json, project.nuget.cache) are left out: the
//    worktree's own restore writes them with its paths, from the shared package cache;
//  - generated text that names the project's folder (the analyzer .editorconfig, FileListAbsolute.txt)
//    is rewritten to the worktree's folder and keeps its timestamp, so it is what the worktree's build
//    would have written and MSBuild (which writes them only when they differ) leaves them alone.
// A project whose copy fails part way is removed whole: a half-copied file with a new timestamp would
// look up to date.

import { constants, promises as fs } from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';

/** Written by restore with the workspace's absolute paths: the worktree's own restore makes them. */
const RESTORE_OUTPUT = /^(project\.assets\.json|project\.nuget\.cache|.+\.nuget\.dgspec\.json)$/i;
/** Generated text outputs that may name the project's folder. */
const PATH_TEXT = /\.(editorconfig|txt|json|props|targets|cache)$/i;
const PATH_TEXT_MAX_BYTES = 4 * 1024 * 1024;
const PROJECT_FILE = /\.(cs|fs|vb)proj$/i;
const OUTPUT_DIRS = ['obj', 'bin'];
const CONCURRENCY = 16;

export interface WarmWorktree {
  /** Projects whose build output was copied. */
  projects: number;
  /** Checked-out files given their twin's timestamps. */
  unchanged: number;
}

/** What is known of each tracked file against its twin (workspace/git-twins.ts says it from git). */
export interface TwinKnowledge {
  /** Identical to the twin: given its times without reading either. */
  same: ReadonlySet<string>;
  /** Unknown: given the twin's times when their content is equal. Every other file differs. */
  compare: ReadonlySet<string>;
}

/**
 * Copies the build output of each project in `tracked` (paths relative to both tops) from `source`
 * to `target`, and gives each file of `tracked` identical to its twin in `source` the twin's times:
 * the files `twins` names as the same, and those it leaves to compare whose content is equal
 * (without `twins`, every file is compared). A project that already has an obj/ or bin/ in `target`
 * is left alone.
 */
export async function warmWorktree(
  source: string,
  target: string,
  tracked: readonly string[],
  twins?: TwinKnowledge,
): Promise<WarmWorktree> {
  const from = path.resolve(source);
  const to = path.resolve(target);
  if (from === to) throw new Error('A worktree cannot be warmed from itself.');
  let unchanged = 0;
  await eachLimited(tracked, async (file) => {
    const known = twins === undefined ? 'compare' : twins.same.has(file) ? 'same' : twins.compare.has(file) ? 'compare' : 'differs';
    if (known !== 'differs' && (await keepTwinTimes(path.join(from, file), path.join(to, file), known === 'compare'))) unchanged += 1;
  });
  const projectDirs = [...new Set(tracked.filter((file) => PROJECT_FILE.test(file)).map((file) => path.dirname(file)))];
  let projects = 0;
  await eachLimited(projectDirs, async (dir) => {
    if (await copyProjectOutput(from, to, dir)) projects += 1;
  });
  return { projects, unchanged };
}

/** Gives `file` its twin's times when both are regular files of one size and, if `compare`, equal content. */
async function keepTwinTimes(twin: string, file: string, compare: boolean): Promise<boolean> {
  // Links are left alone: their time is their target's, which may lie outside the worktree.
  const [a, b] = await Promise.all([statOrNull(twin, true), statOrNull(file, true)]);
  if (!a?.isFile() || !b?.isFile() || a.size !== b.size) return false;
  if (compare) {
    const [left, right] = await Promise.all([fs.readFile(twin), fs.readFile(file)]);
    if (!left.equals(right)) return false;
  }
  await fs.utimes(file, a.atimeMs / 1000, a.mtimeMs / 1000);
  return true;
}

/** True when some output was copied; on a failure the project's copies are removed and it builds cold. */
async function copyProjectOutput(from: string, to: string, dir: string): Promise<boolean> {
  const present = await Promise.all(
    OUTPUT_DIRS.map(async (name) => (await statOrNull(path.join(from, dir, name)))?.isDirectory() === true),
  );
  const names = OUTPUT_DIRS.filter((_, index) => present[index]);
  if (names.length === 0) return false;
  for (const name of OUTPUT_DIRS) if (await statOrNull(path.join(to, dir, name))) return false;
  try {
    for (const name of names) await copyTree(path.join(from, dir, name), path.join(to, dir, name), from, to);
    return true;
  } catch {
    await Promise.all(names.map((name) => fs.rm(path.join(to, dir, name), { recursive: true, force: true })));
    return false;
  }
}

async function copyTree(source: string, target: string, fromRoot: string, toRoot: string): Promise<void> {
  await fs.mkdir(target, { recursive: true });
  const entries = await fs.readdir(source, { withFileTypes: true });
  for (const entry of entries) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) await copyTree(from, to, fromRoot, toRoot);
    else if (entry.isFile() && !RESTORE_OUTPUT.test(entry.name)) await copyFile(from, to, fromRoot, toRoot);
    // Links and other kinds are not copied: nothing in a worktree may lead into the main workspace.
  }
  const stat = await fs.stat(source);
  await fs.utimes(target, stat.atimeMs / 1000, stat.mtimeMs / 1000);
}

/** One file, as a reflink where the file system can, with its times; text naming the source's folder names the target's. */
async function copyFile(from: string, to: string, fromRoot: string, toRoot: string): Promise<void> {
  const stat = await fs.stat(from);
  if (PATH_TEXT.test(from) && stat.size <= PATH_TEXT_MAX_BYTES) {
    const text = await fs.readFile(from);
    const rewritten = rewritePaths(text, fromRoot, toRoot);
    if (rewritten !== null) {
      await fs.writeFile(to, rewritten);
      await fs.utimes(to, stat.atimeMs / 1000, stat.mtimeMs / 1000);
      return;
    }
  }
  await fs.copyFile(from, to, constants.COPYFILE_FICLONE);
  await fs.utimes(to, stat.atimeMs / 1000, stat.mtimeMs / 1000);
}

/** The text with every `fromRoot` folder path made `toRoot`'s; null when it names none. */
export function rewritePaths(content: Buffer, fromRoot: string, toRoot: string): string | null {
  const text = content.toString('utf8');
  if (!text.includes(fromRoot)) return null;
  // A path is the root itself or the root followed by a separator; `/repo-other` is not `/repo`.
  const escaped = fromRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?=[\\\\/"'\\s;,]|$)`, 'g'), () => toRoot);
}

async function statOrNull(file: string, noFollow = false): Promise<Stats | null> {
  try {
    return await (noFollow ? fs.lstat(file) : fs.stat(file));
  } catch {
    return null;
  }
}

async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}
