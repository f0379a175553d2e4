// Files for the VS Code host. The extension host is a Node process running where the workspace's
// files are (locally, or on the server in remote and code-server setups; virtual workspaces are
// declared unsupported in package.json), so the Node file system is the right one: it writes
// state.json atomically (temp file + rename), which `workspace.fs.writeFile` does not promise,
// and VS Code's file watcher sees the writes like any other.
// What it adds: before a workspace file is written, the diagnostics it has now are remembered, so
// the validator hears only about errors that are new since before the edit.

import type { HostFileSystem, ReadOptions, WriteOptions } from '../../core/host';
import { NodeFileSystem } from '../node/fs';

export type BeforeWriteListener = (absPath: string) => void;

export class VscodeFileSystem implements HostFileSystem {
  private readonly inner = new NodeFileSystem();

  constructor(private readonly beforeWrite: BeforeWriteListener = () => undefined) {}

  readFile(absPath: string, options?: ReadOptions): Promise<Uint8Array | null> {
    return this.inner.readFile(absPath, options);
  }

  readChunks(absPath: string): Promise<AsyncIterable<Uint8Array> | null> {
    return this.inner.readChunks(absPath);
  }

  async writeFile(absPath: string, data: Uint8Array | string, options?: WriteOptions): Promise<void> {
    this.beforeWrite(absPath);
    await this.inner.writeFile(absPath, data, options);
  }

  async writeChunks(absPath: string, pieces: Iterable<string>): Promise<void> {
    this.beforeWrite(absPath);
    await this.inner.writeChunks(absPath, pieces);
  }

  appendFile(absPath: string, text: string): Promise<void> {
    return this.inner.appendFile(absPath, text);
  }

  async deleteFile(absPath: string, options?: WriteOptions): Promise<void> {
    this.beforeWrite(absPath);
    await this.inner.deleteFile(absPath, options);
  }

  exists(absPath: string): Promise<boolean> {
    return this.inner.exists(absPath);
  }

  listFiles(absDir: string, options?: { maxFiles?: number }): Promise<string[]> {
    return this.inner.listFiles(absDir, options);
  }
}
