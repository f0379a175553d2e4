// Workspace containment: every path a model sends is checked here before anything reads or writes.
// The model is input, not trusted code: `..`, absolute paths, symlinks that lead out, and the
// folders the run itself owns (.git, .ironbees) are refused with a message that says what is allowed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigurationError, PathOutsideWorkspaceError } from '../errors';
import { windowsNameProblem } from './windows-names';

export interface ResolvedPath {
  /** Absolute, in the platform's form. */
  abs: string;
  /** Workspace-relative with forward slashes, no leading `./`; '' for the root itself. */
  rel: string;
}

/** Folders no tool may read or write, compared case-insensitively (Windows and macOS ignore case). */
const PROTECTED_SEGMENTS = new Set(['.git', '.ironbees']);

/** Longer than any path a file system accepts (Linux PATH_MAX is 4096). */
export const MAX_PATH_CHARS = 4_096;

const HINT = 'use a path relative to the workspace root, e.g. "src/App/Program.cs"';

export interface ResolveOptions {
  /**
   * The path is about to be written or deleted. A write through a symbolic link would replace the
   * link with a file (or change a file somewhere the person did not review), so any link on the way
   * is refused, even one that stays inside the workspace.
   */
  forWrite?: boolean;
  /** The root's real path, when the caller checks many paths at once (see filterInsideWorkspace). */
  realRoot?: string;
  /** The platform whose file names are checked (windows-names.ts); this process's when absent. */
  platform?: NodeJS.Platform;
  /**
   * Ironbees itself opens a file of its own folder (`.ironbees/`: agents, mcp.json, runs, the
   * coordination store). That segment is allowed (`.git` stays refused), and no symbolic link is
   * allowed on the way, as for a write: what a repository ships there is read as it is, never
   * through a link to `/proc/self/environ` or a file outside, and the run's state is never written
   * through a `.ironbees` that is a link.
   */
  toolingFolder?: boolean;
}

/** The folder Ironbees keeps its configuration and its runs in, at the workspace root. */
export const TOOLING_FOLDER = '.ironbees';

/** Windows and macOS compare file names without case; realpath may return the disk's spelling. */
const CASE_INSENSITIVE_FS = process.platform === 'win32' || process.platform === 'darwin';

/**
 * Resolves a model-supplied path against the workspace root, or throws PathOutsideWorkspaceError.
 * Synchronous on purpose: it is called once per tool call and must not interleave with edits.
 */
export function resolveWorkspacePath(root: string, rel: string, options: ResolveOptions = {}): ResolvedPath {
  if (typeof rel !== 'string') throw new PathOutsideWorkspaceError(String(rel), `a path must be text; ${HINT}`);
  if (rel.includes('\0')) throw new PathOutsideWorkspaceError(rel, 'the path contains a NUL character');
  // No file system takes paths this long; refusing early keeps a huge model string from costing seconds of I/O.
  if (rel.length > MAX_PATH_CHARS)
    throw new PathOutsideWorkspaceError(`${rel.slice(0, 60)}…`, `the path is ${rel.length} characters long (at most ${MAX_PATH_CHARS})`);
  const absRoot = path.resolve(root);
  const cleaned = rel.trim().replace(/\\/g, '/');
  const abs = path.resolve(absRoot, cleaned === '' ? '.' : cleaned);
  const lexical = relativeInside(absRoot, abs);
  if (lexical === null) {
    const why = isAbsoluteAnywhere(cleaned) ? 'it is an absolute path outside the workspace' : 'it leads outside the workspace';
    throw new PathOutsideWorkspaceError(rel, `${why}; ${HINT}`);
  }
  refuseProtected(rel, lexical, options.toolingFolder);
  refuseWindowsNames(rel, lexical, options);

  // A symlink inside the workspace may point anywhere: judge where the path really lands.
  const realRoot = options.realRoot ?? realpathOfNearest(absRoot);
  const realTarget = realpathOfNearest(abs);
  const real = relativeInside(realRoot, realTarget);
  if (real === null) throw new PathOutsideWorkspaceError(rel, `it goes through a symbolic link that leads outside the workspace; ${HINT}`);
  if (!options.toolingFolder) refuseProtected(rel, real);
  if (options.toolingFolder && !samePath(real, lexical)) {
    throw new PathOutsideWorkspaceError(
      rel,
      `it is, or goes through, a symbolic link (it resolves to ${displayPath(real)}); Ironbees opens the files of ${TOOLING_FOLDER}/ only where they are, never through a link`,
    );
  }
  if (options.forWrite && !samePath(real, lexical)) {
    throw new PathOutsideWorkspaceError(
      rel,
      `it is, or goes through, a symbolic link (it resolves to ${displayPath(real)}); Ironbees does not edit through links, ` +
        'because the write would replace the link with a file. Edit the file the link points to instead',
    );
  }

  return { abs, rel: lexical };
}

/**
 * The same check as a yes/no, for walks (listings, the C# index, search): a listed path that the
 * check refuses is left out, silently, as if it were not there.
 */
export function isInsideWorkspace(root: string, rel: string, realRoot?: string): boolean {
  try {
    resolveWorkspacePath(root, rel, { realRoot });
    return true;
  } catch {
    return false;
  }
}

/** The listed paths the check keeps, in order; the root's real path is looked up once for the whole list. */
export function filterInsideWorkspace(root: string, rels: readonly string[]): string[] {
  const realRoot = realpathOfNearest(path.resolve(root));
  return rels.filter((rel) => isInsideWorkspace(root, rel, realRoot));
}

function samePath(a: string, b: string): boolean {
  return CASE_INSENSITIVE_FS ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Forward-slash relative path of `target` inside `root`, or null when it is outside. */
function relativeInside(root: string, target: string): string | null {
  const relative = path.relative(root, target);
  if (relative === '') return '';
  if (path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`)) return null;
  return relative.split(path.sep).join('/');
}

function refuseProtected(requested: string, rel: string, toolingFolder = false): void {
  const segments = rel.split('/');
  if (toolingFolder && segments[0]?.toLowerCase() !== TOOLING_FOLDER) {
    throw new PathOutsideWorkspaceError(requested, `it is not inside ${TOOLING_FOLDER}/, where Ironbees keeps its own files`);
  }
  const hit = segments.slice(toolingFolder ? 1 : 0).find((segment) => PROTECTED_SEGMENTS.has(segment.toLowerCase()));
  if (hit !== undefined) {
    throw new PathOutsideWorkspaceError(requested, `${hit}/ belongs to the tooling and is off limits; work with the project's own files`);
  }
}

function refuseWindowsNames(requested: string, rel: string, options: ResolveOptions): void {
  if ((options.platform ?? process.platform) !== 'win32' && !options.forWrite) return;
  const problem = windowsNameProblem(rel);
  if (problem !== null) throw new PathOutsideWorkspaceError(requested, `${problem}; choose another name`);
}

function isAbsoluteAnywhere(p: string): boolean {
  return p.startsWith('/') || /^[a-zA-Z]:/.test(p);
}

/**
 * The real path of `p`, resolving symlinks through its nearest existing ancestor, so a file the
 * editor is about to create is judged by the folder it will land in.
 */
function realpathOfNearest(p: string, depth = 0): string {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return path.join(real, ...[...missing].reverse());
    } catch {
      // A dangling symlink has no real path, but its target still says where a write would land.
      const target = danglingLinkTarget(current);
      if (target !== null && depth < 40) return realpathOfNearest(path.join(target, ...[...missing].reverse()), depth + 1);
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function danglingLinkTarget(p: string): string | null {
  try {
    if (!fs.lstatSync(p).isSymbolicLink()) return null;
    return path.resolve(path.dirname(p), fs.readlinkSync(p));
  } catch {
    return null;
  }
}

/**
 * `<root>/<rel>` for a file of Ironbees' own folder (`rel` starts with `.ironbees/`), or throws
 * PathOutsideWorkspaceError when it, or any folder on its way, `.ironbees` included, is a symbolic
 * link or leads outside the workspace.
 */
export function resolveToolingPath(root: string, rel: string): string {
  return resolveWorkspacePath(root, rel, { toolingFolder: true }).abs;
}

/**
 * Before a run, `ironbees mcp` or anything else writes its state: `.ironbees` must be a real folder
 * of the workspace (or not exist yet). A `.ironbees` that is a symbolic link (a repository can ship
 * one) would put the run's state, its lock and its journal wherever the link points: a
 * ConfigurationError (the CLI's exit 2), before anything is written.
 */
export function checkToolingFolder(root: string): void {
  try {
    resolveToolingPath(root, TOOLING_FOLDER);
  } catch (error) {
    if (!(error instanceof PathOutsideWorkspaceError)) throw error;
    throw new ConfigurationError(
      `${path.join(root, TOOLING_FOLDER)} is a symbolic link (or leads outside the workspace); Ironbees keeps its runs only in a real ${TOOLING_FOLDER} folder inside the workspace. Remove the link and try again.`,
      { setting: TOOLING_FOLDER },
    );
  }
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(path.join(root, TOOLING_FOLDER));
  } catch {
    return;
  }
  if (!stat.isDirectory())
    throw new ConfigurationError(
      `${path.join(root, TOOLING_FOLDER)} is not a folder; Ironbees keeps its runs in a ${TOOLING_FOLDER} folder at the workspace root.`,
    );
}

/** Display form of a workspace-relative path ('' is the root). */
export function displayPath(rel: string): string {
  return rel === '' ? '.' : rel;
}
