// A memory host whose file system ignores case, as Windows' and macOS' do: `src/calculator.cs` reads
// and writes the file stored as `src/Calculator.cs`, and the host says so (`fs.caseInsensitive`).

import * as path from 'node:path';
import type { HostFileSystem } from '../../src/core/host';
import { createMemoryHost } from './memory-host';
import type { MemoryHost } from './memory-host';

export function createCaseInsensitiveHost(
  initial: Record<string, string> = {},
  workspaceRoot = path.resolve('/memory-workspace'),
): MemoryHost {
  const host = createMemoryHost(initial, workspaceRoot);
  const inner = host.fs;
  /** The stored spelling of `abs`, when a file or folder of that name exists in any case. */
  const stored = (abs: string): string => {
    const rel = path.relative(workspaceRoot, abs).split(path.sep).join('/');
    const folded = rel.toLowerCase();
    for (const key of host.files.keys()) {
      if (key.toLowerCase() === folded) return path.join(workspaceRoot, key);
      if (key.toLowerCase().startsWith(`${folded}/`)) return path.join(workspaceRoot, key.slice(0, rel.length));
    }
    return abs;
  };
  const fs: HostFileSystem = {
    caseInsensitive: true,
    readFile: (abs) => inner.readFile(stored(abs)),
    writeFile: (abs, data, options) => inner.writeFile(stored(abs), data, options),
    appendFile: (abs, text) => inner.appendFile(stored(abs), text),
    deleteFile: (abs, options) => inner.deleteFile(stored(abs), options),
    exists: (abs) => inner.exists(stored(abs)),
    listFiles: (abs, options) => inner.listFiles(stored(abs), options),
  };
  return { ...host, fs };
}
