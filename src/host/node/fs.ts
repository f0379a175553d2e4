// HostFileSystem on Node's fs. Writes go to a temporary file in the same folder and are renamed
// into place, so a crash or a full disk never leaves a half-written source file behind. A durable
// write also flushes the temporary file before the rename and the folder (and any folder it had to
// create) after it: without that a power loss may keep a later write and lose an earlier one.

import { constants as fsConstants, promises as fsp } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { FileAppender, HostFileSystem, ReadOptions, WriteOptions } from '../../core/host';
import { FileTooLargeError, NotRegularFileError } from '../../core/errors';
import { randomBytes } from 'node:crypto';
import { isInsideWorkspace } from '../../core/workspace/paths';
import { refuseReadOnly } from './read-only';

/** Build output and tool folders: never source, often huge. Compared case-insensitively. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['bin', 'obj', '.git', '.ironbees', 'node_modules', '.vs']);
const DEFAULT_MAX_FILES = 10_000;
/** Windows refuses to rename over a file another process (an editor, an indexer) has open for a moment. */
const RENAME_RETRIES = 5;
/** Pieces of a file read in chunks. */
const READ_CHUNK_BYTES = 64 * 1024;
/** No file is read whole past this, whoever asks: a bigger one is refused from its size. */
export const MAX_READ_BYTES = 256 * 1024 * 1024;
/** Opening never waits: a FIFO swapped in after the check opens at once and is refused by its fstat. */
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

export class NodeFileSystem implements HostFileSystem {
  async readFile(absPath: string, options: ReadOptions = {}): Promise<Uint8Array | null> {
    const handle = await openRegularFile(absPath);
    if (!handle) return null;
    try {
      const maxBytes = Math.min(options.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
      const { size } = await handle.stat();
      if (size > maxBytes) throw new FileTooLargeError(absPath, size, maxBytes);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async readChunks(absPath: string): Promise<AsyncIterable<Uint8Array> | null> {
    const handle = await openRegularFile(absPath);
    return handle ? piecesOf(handle) : null;
  }

  async writeFile(absPath: string, data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    const created = await writeAtomically(absPath, (temp) => (options.durable ? writeAndFlush(temp, data) : fsp.writeFile(temp, data)));
    if (options.durable) await flushFolders(path.dirname(absPath), created);
  }

  async writeChunks(absPath: string, pieces: Iterable<string>): Promise<void> {
    await writeAtomically(absPath, async (temp) => {
      const handle = await fsp.open(temp, 'w');
      try {
        // writeFile on a handle writes the whole piece at the current position.
        for (const piece of pieces) await handle.writeFile(piece, 'utf8');
      } finally {
        await handle.close();
      }
    });
  }

  async appendFile(absPath: string, text: string): Promise<void> {
    await inFolderMadeIfMissing(absPath, () => fsp.appendFile(absPath, text, 'utf8'));
  }

  async openAppender(absPath: string): Promise<FileAppender> {
    let handle: FileHandle | undefined;
    await inFolderMadeIfMissing(absPath, async () => void (handle = await fsp.open(absPath, 'a')));
    const open = handle as FileHandle;
    // Opened for appending: every write lands at the end, whoever else appends to the file.
    return { append: (text) => open.writeFile(text, 'utf8'), close: () => open.close() };
  }

  async deleteFile(absPath: string, options: WriteOptions = {}): Promise<void> {
    await refuseReadOnly(absPath);
    await fsp.rm(absPath, { force: true });
    if (options.durable) await flushFolders(path.dirname(absPath), undefined);
  }

  async exists(absPath: string): Promise<boolean> {
    try {
      await fsp.stat(absPath);
      return true;
    } catch {
      return false;
    }
  }

  async listFiles(absDir: string, options: { maxFiles?: number } = {}): Promise<string[]> {
    const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    const found: string[] = [];
    // Breadth-first, so a bounded walk shows the top of the tree rather than one deep corner.
    const queue: string[] = [''];
    while (queue.length > 0 && found.length < maxFiles) {
      const rel = queue.shift() as string;
      const entries = await readDirSorted(path.join(absDir, rel));
      for (const entry of entries) {
        const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(entry.name.toLowerCase())) queue.push(child);
        } else if (
          entry.isFile() ||
          (entry.isSymbolicLink() && isInsideWorkspace(absDir, child) && (await isFileBehindLink(path.join(absDir, child))))
        ) {
          // Symlinked folders are not followed: they can loop, and can lead out of the workspace.
          // A symlinked file is listed only when the one containment check, applied to the folder
          // being walked, keeps it: a link leading out of the walk is not listed at all.
          found.push(child);
          if (found.length >= maxFiles) break;
        }
      }
    }
    return found.sort();
  }
}

/**
 * The file through one buffer, refilled for each piece (a stream would allocate a new one per piece, all
 * garbage until the next collection). The handle closes when the reader ends, fails or stops early.
 */
async function* piecesOf(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Writes to a temporary file beside absPath, then renames it over; returns the first folder it had to create. */
async function writeAtomically(absPath: string, write: (temp: string) => Promise<void>): Promise<string | undefined> {
  const dir = path.dirname(absPath);
  const temp = path.join(dir, `.${path.basename(absPath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await refuseReadOnly(absPath);
  try {
    const created = await inFolderMadeIfMissing(temp, () => write(temp));
    await copyModeIfExists(absPath, temp);
    await renameWithRetry(temp, absPath);
    return created;
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Runs `write`, which opens `file` first, making file's folder only when opening finds it missing:
 * most writes go to a folder that exists, and making sure first cost each of them one more round
 * trip to the file system. Returns the first folder it had to create.
 */
async function inFolderMadeIfMissing(file: string, write: () => Promise<void>): Promise<string | undefined> {
  try {
    await write();
    return undefined;
  } catch (error) {
    // Only the open of `file` itself: a write that failed later may have used up what it was writing.
    const { code, syscall, path: failedPath } = error as NodeJS.ErrnoException;
    if (code !== 'ENOENT' || syscall !== 'open' || failedPath !== file) throw error;
  }
  const created = await fsp.mkdir(path.dirname(file), { recursive: true });
  await write();
  return created;
}

/**
 * The file opened for reading, or null when it is missing or a folder. Anything but a regular file
 * is refused before it is opened (a FIFO blocks its reader, a device may never end), and once more
 * after (it may have been swapped in between).
 */
async function openRegularFile(absPath: string): Promise<FileHandle | null> {
  let stats: Stats;
  try {
    stats = await fsp.stat(absPath);
  } catch (error) {
    if (isNotAFile(error)) return null;
    throw error;
  }
  if (stats.isDirectory()) return null;
  if (!stats.isFile()) throw new NotRegularFileError(absPath, kindOf(stats));
  let handle: FileHandle;
  try {
    handle = await fsp.open(absPath, OPEN_FLAGS);
  } catch (error) {
    if (isNotAFile(error)) return null;
    throw error;
  }
  const opened = await handle.stat();
  if (!opened.isFile()) {
    await handle.close();
    if (opened.isDirectory()) return null;
    throw new NotRegularFileError(absPath, kindOf(opened));
  }
  return handle;
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

function isNotAFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}

async function readDirSorted(absDir: string): Promise<Dirent[]> {
  try {
    const entries = await fsp.readdir(absDir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

async function isFileBehindLink(absPath: string): Promise<boolean> {
  try {
    return (await fsp.stat(absPath)).isFile();
  } catch {
    return false;
  }
}

async function writeAndFlush(file: string, data: Uint8Array | string): Promise<void> {
  const handle = await fsp.open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes `dir`'s entries and, when `created` (the first folder mkdir made) is set, each new folder's entry in its parent. */
async function flushFolders(dir: string, created: string | undefined): Promise<void> {
  const stop = created ? path.dirname(created) : dir;
  for (let folder = dir; ; folder = path.dirname(folder)) {
    await flushFolder(folder);
    if (folder === stop || folder === path.dirname(folder)) return;
  }
}

async function flushFolder(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Windows cannot open a folder to flush it: there the entry is as durable as the platform
    // makes it. Anywhere else this is a real failure.
    const code = (error as NodeJS.ErrnoException).code;
    if (process.platform !== 'win32' || (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES')) throw error;
  } finally {
    await handle?.close();
  }
}

async function copyModeIfExists(from: string, to: string): Promise<void> {
  try {
    const { mode } = await fsp.stat(from);
    await fsp.chmod(to, mode);
  } catch {
    // A new file keeps the default mode.
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= RENAME_RETRIES || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}
