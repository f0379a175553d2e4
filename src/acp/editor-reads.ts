// When the ACP client offers `fs/read_text_file`, what the run reads of a workspace file as a person
// sees it (ReadOptions.editorText: the model's file tools, a diff's "before", the check before an
// approved edit is applied) comes from the editor's buffer, unsaved edits included. The client is
// asked only after the disk read passed (a regular file inside the size limit) and only for a path
// inside the workspace and outside .git/.ironbees; its answer is bounded and otherwise untrusted.

import { Buffer } from 'node:buffer';
import * as path from 'node:path';
import { FileTooLargeError, errorMessage } from '../core/errors';
import type { Logger } from '../core/host';
import { MAX_TEXT_FILE_BYTES } from '../core/workspace/overlay';
import { resolveWorkspacePath } from '../core/workspace/paths';
import { detectFormat, fromLogical, toLogical } from '../core/workspace/text-codec';

/** `fs/read_text_file` of the client: the buffer's text (or the file's, when no buffer is open). */
export type ReadThroughClient = (sessionId: string, absPath: string, signal?: AbortSignal) => Promise<unknown>;

/** The session whose prompt turn runs in a workspace: the one the client is asked for. */
export interface BufferReader {
  sessionId: string;
  /** The turn's: a cancelled turn withdraws a read the editor has not answered ($/cancel_request). */
  signal?: AbortSignal;
  /** Told after each read through the editor: whether the buffer held unsaved text (it differs from the disk). */
  seen(rel: string, unsaved: boolean): void;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function utf8Text(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

export class EditorReads {
  private client: ReadThroughClient | null = null;
  private readonly readers = new Map<string, BufferReader>();

  constructor(private readonly logger: Logger) {}

  /** The client's `fs/read_text_file`, when initialize said the client has it. */
  useClient(client: ReadThroughClient | null): void {
    this.client = client;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** While a session's prompt turn runs, the workspace's reads go through that session; returns the undo. */
  attach(workspaceRoot: string, reader: BufferReader): () => void {
    const root = path.resolve(workspaceRoot);
    this.readers.set(root, reader);
    return () => {
      if (this.readers.get(root) === reader) this.readers.delete(root);
    };
  }

  /**
   * The bytes a read with `editorText` gets: the editor's text in the disk file's format (BOM, line
   * endings), or `disk` when there is no client, no turn, the path is not a workspace source path,
   * or the disk file is not UTF-8 text. A buffer larger than `maxBytes` is refused as a disk file would be.
   */
  async read(workspaceRoot: string, absPath: string, disk: Uint8Array, maxBytes = MAX_TEXT_FILE_BYTES): Promise<Uint8Array> {
    const client = this.client;
    const reader = this.readers.get(path.resolve(workspaceRoot));
    if (!client || !reader) return disk;
    let rel: string;
    try {
      // The containment check again, before anything is asked: never a path outside, in .git or .ironbees.
      rel = resolveWorkspacePath(workspaceRoot, absPath).rel;
    } catch {
      return disk;
    }
    const diskText = utf8Text(disk);
    if (rel === '' || diskText === null) return disk;
    let answer: unknown;
    try {
      answer = await client(reader.sessionId, absPath, reader.signal);
    } catch (error) {
      this.logger.warn(`The editor did not give ${rel} (${errorMessage(error)}); reading the saved file.`);
      return disk;
    }
    const content = (answer as { content?: unknown } | null)?.content;
    if (typeof content !== 'string') {
      this.logger.warn(`The editor's answer for ${rel} has no text; reading the saved file.`);
      return disk;
    }
    const size = Buffer.byteLength(content, 'utf8');
    if (size > maxBytes) throw new FileTooLargeError(absPath, size, maxBytes);
    const buffer = toLogical(content);
    const unsaved = buffer !== toLogical(diskText);
    reader.seen(rel, unsaved);
    return unsaved ? Buffer.from(fromLogical(buffer, detectFormat(diskText)), 'utf8') : disk;
  }
}
