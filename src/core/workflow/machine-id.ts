// Which machine wrote a run lock or an apply's intent record. The host name is not it: macOS renames
// the machine with the network (`Foo.local` → `Foo-2.local`), and a dead run's lock then looks like
// another machine's (never taken over) and its cut-short apply is never recovered. A random id made
// once and kept in the user's cache folder (local to the machine: LOCALAPPDATA, ~/Library/Caches,
// ~/.cache) stays put.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { userCacheDir } from '../platform/user-cache';

const FILE = 'machine-id';
let known: { dir: string; id: string } | null = null;

/** This machine's id, made the first time (kept in `cacheDir`); the host name when that folder cannot be written. */
export function machineId(cacheDir: string = userCacheDir()): string {
  if (known?.dir === cacheDir) return known.id;
  const file = path.join(cacheDir, FILE);
  let id = readId(file);
  if (id === null) {
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      // `wx`: two processes starting at once agree on the id the first one wrote.
      fs.writeFileSync(file, `${randomBytes(16).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch {
      // Written by another process a moment ago, or a folder we cannot write: read what is there.
    }
    id = readId(file);
  }
  const result = id ?? `host:${os.hostname()}`;
  known = { dir: cacheDir, id: result };
  return result;
}

function readId(file: string): string | null {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{16,64}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}
