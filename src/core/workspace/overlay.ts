// The coder's scratch copy of the workspace. Edits land here, never on disk: the person reviews
// them as diffs first, and only approved edits are written (by the run store, with a journal).
// Reads see staged content first, so the model reads back what it just wrote.

import * as path from 'node:path';
import { z } from 'zod';
import { AgentModeError, FileTooLargeError, NotRegularFileError } from '../errors';
import type { Host } from '../host';
import { PathSpellings, foldPath, pathsIgnoreCase } from './path-case';
import type { FileEdit } from '../model';
import { makeFileEdit } from './diff';
import { filterInsideWorkspace, resolveWorkspacePath } from './paths';
import { DEFAULT_TEXT_FORMAT, decodeBytes, detectFormat, fromLogical, toLogical } from './text-codec';
import type { TextFormat } from './text-codec';

interface StagedFile {
  /** LF text without BOM, as the model sees it; null when the file is staged for deletion. */
  content: string | null;
  /** How to write it back: the disk file's format, or the one the new content came with. */
  format: TextFormat;
}

const overlayJson = z.object({
  version: z.literal(1),
  files: z.array(
    z.object({
      path: z.string().min(1),
      content: z.string().nullable(),
      bom: z.boolean(),
      eol: z.enum(['lf', 'crlf']),
    }),
  ),
});
export type StagedOverlayJson = z.infer<typeof overlayJson>;

/** Folders that never hold source the model should see, matching HostFileSystem.listFiles. */
const SKIPPED_DIRS = new Set(['bin', 'obj', '.git', '.ironbees', 'node_modules', '.vs']);

/** The largest file the tools read or edit as text; a bigger one is refused from its size, unread. */
export const MAX_TEXT_FILE_BYTES = 8 * 1024 * 1024;
/** The largest file read_file pages through as a stream (past MAX_TEXT_FILE_BYTES); a bigger one is refused unread. */
export const MAX_STREAMED_FILE_BYTES = 256 * 1024 * 1024;

export type PathKind = 'file' | 'directory' | 'missing';

export class StagedOverlay {
  private readonly staged = new Map<string, StagedFile>();
  /** Where names ignore case, one key per file: the spelling it was first staged with. */
  private readonly spellings: PathSpellings;

  constructor(private readonly host: Host) {
    this.spellings = new PathSpellings(pathsIgnoreCase(host.fs));
  }

  /**
   * Staged content, else the disk file (an editor's buffer where the host has one), as LF text without
   * BOM; null when missing or staged for deletion. `bulk`: one of many files read at once (a search),
   * read from the disk so a search does not open every file in the person's editor.
   */
  async read(rel: string, options: { bulk?: boolean } = {}): Promise<string | null> {
    const { rel: key, abs } = this.resolve(rel);
    const staged = this.staged.get(key);
    if (staged) return staged.content;
    const raw = await this.readDisk(key, abs, options.bulk);
    return raw === null ? null : toLogical(raw);
  }

  /** The file as it is on disk (LF text without BOM), whatever is staged; null when there is none. */
  async original(rel: string): Promise<string | null> {
    const { rel: key, abs } = this.resolve(rel);
    if (key === '') return null;
    const raw = await this.readDisk(key, abs);
    return raw === null ? null : toLogical(raw);
  }

  async write(rel: string, content: string): Promise<void> {
    const { rel: key, abs } = this.resolve(rel, true, true);
    if (key === '') throw new AgentModeError('The workspace root is a folder, not a file; give a file path', 'PATH_IS_DIRECTORY');
    const format = await this.formatFor(key, abs, content);
    this.staged.set(key, { content: toLogical(content), format });
  }

  async delete(rel: string): Promise<void> {
    const { rel: key, abs } = this.resolve(rel, true, true);
    const format = await this.formatFor(key, abs, '');
    this.staged.set(key, { content: null, format });
  }

  stagedPaths(): string[] {
    return [...this.staged.keys()].sort();
  }

  /** Whether a path is a file, a folder (on disk, or implied by staged files), or nothing. */
  async kind(rel: string): Promise<PathKind> {
    const { rel: key, abs } = this.resolve(rel);
    const staged = this.staged.get(key);
    if (staged && staged.content !== null) return 'file';
    if (key === '') return 'directory';
    const prefix = this.fold(`${key}/`);
    if ([...this.staged].some(([p, f]) => f.content !== null && this.fold(p).startsWith(prefix))) return 'directory';
    if (staged) return 'missing';
    try {
      // Only the kind is wanted: a limit of 0 bytes checks what is there and reads nothing of it.
      if ((await this.host.fs.readFile(abs, { maxBytes: 0 })) !== null) return 'file';
    } catch (error) {
      // Too big, or a FIFO or device: it is there, and reading it says why it cannot be read.
      if (error instanceof FileTooLargeError || error instanceof NotRegularFileError) return 'file';
      throw error;
    }
    return (await this.host.fs.exists(abs)) ? 'directory' : 'missing';
  }

  /**
   * Files under a folder (workspace-relative, sorted), disk merged with staged creations and
   * deletions, skipping build output and tool folders. `maxFiles` bounds the disk walk.
   */
  async listFiles(relDir = '', options: { maxFiles?: number } = {}): Promise<string[]> {
    const { rel: dir, abs } = this.resolve(relDir);
    const prefix = dir === '' ? '' : `${dir}/`;
    const onDisk = await this.host.fs.listFiles(abs, { maxFiles: options.maxFiles });
    // A listed symlink that leads out of the workspace (or into .git/.ironbees) is not there for the model.
    // Keyed by the folded path: where names ignore case, a staged file and the disk's are one entry.
    const files = new Map(
      filterInsideWorkspace(
        this.host.workspaceRoot,
        onDisk.map((f) => prefix + f),
      ).map((f) => [this.fold(f), f]),
    );
    const folded = this.fold(prefix);
    for (const [p, f] of this.staged) {
      if (!this.fold(p).startsWith(folded)) continue;
      if (f.content === null) files.delete(this.fold(p));
      else if (
        !p
          .slice(prefix.length)
          .split('/')
          .slice(0, -1)
          .some((s) => SKIPPED_DIRS.has(s.toLowerCase()))
      )
        files.set(this.fold(p), files.get(this.fold(p)) ?? p);
    }
    return [...files.values()].sort();
  }

  /** One edit per file whose staged content differs from the disk, in path order. */
  async edits(): Promise<FileEdit[]> {
    const result: FileEdit[] = [];
    for (const key of this.stagedPaths()) {
      const staged = this.staged.get(key);
      if (!staged) continue;
      const original = await this.readDisk(key, this.absOf(key));
      if (staged.content === null) {
        if (original !== null) result.push(makeFileEdit(key, original, null));
        continue;
      }
      if (original !== null && toLogical(original) === staged.content) continue;
      result.push(makeFileEdit(key, original, fromLogical(staged.content, staged.format)));
    }
    return result;
  }

  toJSON(): StagedOverlayJson {
    return {
      version: 1,
      files: this.stagedPaths().map((p) => {
        const f = this.staged.get(p) as StagedFile;
        return { path: p, content: f.content, bom: f.format.bom, eol: f.format.eol };
      }),
    };
  }

  /** Restores staged work; a malformed value is refused whole, with what was wrong. */
  static fromJSON(host: Host, json: unknown): StagedOverlay {
    const parsed = overlayJson.safeParse(json);
    if (!parsed.success) {
      throw new AgentModeError(`Not a staged overlay: ${z.prettifyError(parsed.error)}`, 'BAD_OVERLAY_JSON');
    }
    const overlay = new StagedOverlay(host);
    for (const f of parsed.data.files) {
      const { rel } = overlay.resolve(f.path, true, true);
      overlay.staged.set(rel, { content: f.content === null ? null : toLogical(f.content), format: { bom: f.bom, eol: f.eol } });
    }
    return overlay;
  }

  /** The checked path, keyed by the spelling the file was first staged with (recorded when `staging`). */
  private resolve(rel: string, forWrite = false, staging = false): { rel: string; abs: string } {
    const resolved = resolveWorkspacePath(this.host.workspaceRoot, rel, { forWrite });
    const key = staging ? this.spellings.canonical(resolved.rel) : this.spellings.known(resolved.rel);
    return key === resolved.rel ? resolved : { rel: key, abs: this.absOf(key) };
  }

  private fold(p: string): string {
    return foldPath(p, this.spellings.ignoreCase);
  }

  private absOf(key: string): string {
    return path.resolve(this.host.workspaceRoot, key);
  }

  /** The file's text as the person sees it (ReadOptions.editorText); `bulk`: a search's read, from the disk. */
  private async readDisk(key: string, abs: string, bulk = false): Promise<string | null> {
    const bytes = await this.host.fs.readFile(abs, { maxBytes: MAX_TEXT_FILE_BYTES, ...(bulk ? {} : { editorText: true }) });
    return bytes === null ? null : decodeBytes(key, bytes);
  }

  /** A staged file keeps the format it was first given; a disk file keeps its own; a new file follows its content. */
  private async formatFor(key: string, abs: string, content: string): Promise<TextFormat> {
    const staged = this.staged.get(key);
    if (staged) return staged.format;
    const disk = await this.readDisk(key, abs);
    if (disk !== null) return detectFormat(disk);
    return content === '' ? DEFAULT_TEXT_FORMAT : { bom: false, eol: detectFormat(content).eol };
  }
}
