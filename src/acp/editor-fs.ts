// When the ACP client offers `fs/write_text_file`, the edits a person approved are written through
// the editor (its buffers, which it saves), not behind its back. Only the files of the apply the
// session is waiting for go that way; everything else the run writes (its records under .ironbees)
// and any file that is not plain UTF-8 text goes to the disk as before. Reads that want the text a
// person sees (ReadOptions.editorText) come from the editor's buffers when it offers
// `fs/read_text_file` (editor-reads.ts).

import * as path from 'node:path';
import type { FileAppender, Host, HostFileSystem, ReadOptions, WriteOptions } from '../core/host';
import type { EditorReads } from './editor-reads';

export type WriteThroughClient = (sessionId: string, absPath: string, content: string) => Promise<void>;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text an editor can be handed for these bytes, or null (not UTF-8, or a BOM the editor might drop). */
function editorText(data: Uint8Array | string): string | null {
  if (typeof data === 'string') return data;
  if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return null;
  try {
    return UTF8.decode(data);
  } catch {
    return null;
  }
}

/** Which files, for which session, are being applied now; set while the session answers a diff gate. */
export class EditorWrites {
  private client: WriteThroughClient | null = null;
  private expected: { sessionId: string; files: Set<string> } | null = null;
  private readonly written = new Set<string>();

  /** The client's `fs/write_text_file`, when initialize said the client has it. */
  useClient(client: WriteThroughClient | null): void {
    this.client = client;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  expect(sessionId: string, absPaths: readonly string[]): void {
    this.expected = { sessionId, files: new Set(absPaths.map((file) => path.resolve(file))) };
  }

  clear(): void {
    this.expected = null;
  }

  /** The files written through the client since the last call (their buffer and the disk now agree). */
  takeWritten(): string[] {
    const files = [...this.written];
    this.written.clear();
    return files;
  }

  /** True when the write went through the client. */
  async write(absPath: string, data: Uint8Array | string): Promise<boolean> {
    const expected = this.expected;
    if (!this.client || !expected || !expected.files.has(path.resolve(absPath))) return false;
    const content = editorText(data);
    if (content === null) return false;
    await this.client(expected.sessionId, path.resolve(absPath), content);
    this.written.add(path.resolve(absPath));
    return true;
  }
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

class EditorFileSystem implements HostFileSystem {
  readonly caseInsensitive?: boolean;

  constructor(
    private readonly inner: HostFileSystem,
    private readonly workspaceRoot: string,
    private readonly editor: EditorIo,
  ) {
    if (inner.caseInsensitive !== undefined) this.caseInsensitive = inner.caseInsensitive;
  }

  async readFile(absPath: string, options?: ReadOptions): Promise<Uint8Array | null> {
    // The disk first: a missing file, a FIFO or a file over the limit is refused before the editor is asked.
    const disk = await this.inner.readFile(absPath, options);
    if (disk === null || !options?.editorText || options.maxBytes === 0) return disk;
    return this.editor.reads.read(this.workspaceRoot, path.resolve(absPath), disk, options.maxBytes);
  }

  readChunks(absPath: string): Promise<AsyncIterable<Uint8Array> | null> {
    if (this.inner.readChunks) return this.inner.readChunks(absPath);
    return this.inner.readFile(absPath).then((bytes) => (bytes ? oneChunk(bytes) : null));
  }

  async writeFile(absPath: string, data: Uint8Array | string, options?: WriteOptions): Promise<void> {
    if (await this.editor.writes.write(absPath, data)) return;
    await this.inner.writeFile(absPath, data, options);
  }

  writeChunks(absPath: string, pieces: Iterable<string>): Promise<void> {
    if (this.inner.writeChunks) return this.inner.writeChunks(absPath, pieces);
    return this.inner.writeFile(absPath, [...pieces].join(''));
  }

  appendFile(absPath: string, text: string): Promise<void> {
    return this.inner.appendFile(absPath, text);
  }

  openAppender(absPath: string): Promise<FileAppender> {
    if (this.inner.openAppender) return this.inner.openAppender(absPath);
    const inner = this.inner;
    return Promise.resolve({ append: (text: string) => inner.appendFile(absPath, text), close: () => Promise.resolve() });
  }

  deleteFile(absPath: string, options?: WriteOptions): Promise<void> {
    return this.inner.deleteFile(absPath, options);
  }

  exists(absPath: string): Promise<boolean> {
    return this.inner.exists(absPath);
  }

  listFiles(absDir: string, options?: { maxFiles?: number }): Promise<string[]> {
    return this.inner.listFiles(absDir, options);
  }
}

/** How a workspace's host reaches the editor: reads of buffers, writes of approved edits. */
export interface EditorIo {
  reads: EditorReads;
  writes: EditorWrites;
}

/** The host the runtime uses: the same, but files are read from and approved edits written through the editor. */
export function hostThroughEditor(host: Host, editor: EditorIo): Host {
  return { ...host, fs: new EditorFileSystem(host.fs, path.resolve(host.workspaceRoot), editor) };
}
