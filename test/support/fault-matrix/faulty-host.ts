// Faults injected through the file system a run writes with: a host whose writes start failing at
// a chosen write (a power loss: once it fails, every later write fails too, as nothing runs after
// the power is gone), and a full disk under the Node file system itself, which fills half the
// temporary file before ENOSPC (what a real full disk does).

import { promises as fsp } from 'node:fs';
import type { Host, HostFileSystem } from '../../../src/core/host';

export class PowerLoss extends Error {
  constructor(readonly atPath: string) {
    super(`power lost while writing ${atPath}`);
  }
}

/**
 * The host with its writes and deletes failing from the first one `cutsPowerAt` picks (given the
 * absolute path and how many writes came before); reads keep working.
 */
export function hostLosingPower(host: Host, cutsPowerAt: (absPath: string, writesBefore: number) => boolean): Host {
  let writes = 0;
  let off: PowerLoss | null = null;
  const guard = (absPath: string): void => {
    if (!off && cutsPowerAt(absPath, writes)) off = new PowerLoss(absPath);
    writes++;
    if (off) throw off;
  };
  const fs: HostFileSystem = Object.create(host.fs) as HostFileSystem;
  fs.writeFile = async (absPath, data, options) => {
    guard(absPath);
    return host.fs.writeFile(absPath, data, options);
  };
  fs.writeChunks = async (absPath, pieces) => {
    guard(absPath);
    return host.fs.writeChunks ? host.fs.writeChunks(absPath, pieces) : host.fs.writeFile(absPath, [...pieces].join(''));
  };
  fs.deleteFile = async (absPath, options) => {
    guard(absPath);
    return host.fs.deleteFile(absPath, options);
  };
  const faulty = Object.create(host) as Host;
  Object.defineProperty(faulty, 'fs', { value: fs });
  return faulty;
}

/**
 * Until the returned function is called, every write by the Node file system to a temporary file
 * whose target name matches `target` writes half its data and fails with ENOSPC.
 */
export function fillDiskFor(target: RegExp): () => void {
  const original = fsp.writeFile;
  const patched = async (
    file: Parameters<typeof fsp.writeFile>[0],
    data: Parameters<typeof fsp.writeFile>[1],
    options?: Parameters<typeof fsp.writeFile>[2],
  ): Promise<void> => {
    if (typeof file === 'string' && target.test(file) && (typeof data === 'string' || data instanceof Uint8Array)) {
      await original(file, data.slice(0, Math.floor(data.length / 2)));
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
        path: file,
      });
    }
    return original(file, data, options);
  };
  fsp.writeFile = patched as typeof fsp.writeFile;
  return () => {
    fsp.writeFile = original;
  };
}
