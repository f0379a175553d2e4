// Every byte of a workspace accounted for: a snapshot of all files outside .ironbees/ before a
// fault, and the check afterwards that each file holds exactly its original or its expected new
// bytes, that deleted files are gone and that nothing else appeared.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type WorkspaceBytes = Map<string, Buffer>;
/** Expected changes, workspace-relative: new content, or null for a file that must be gone. */
export type ExpectedChanges = Record<string, string | Buffer | null>;

/** Every file outside .ironbees/ (Ironbees' own folder), with its bytes; keys use '/'. */
export function workspaceBytes(dir: string, ignore?: RegExp): WorkspaceBytes {
  const files: WorkspaceBytes = new Map();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const key = rel.split(path.sep).join('/');
    if (key === '.ironbees' || key.startsWith('.ironbees/') || ignore?.test(key)) continue;
    const abs = path.join(dir, rel);
    if (fs.statSync(abs).isFile()) files.set(key, fs.readFileSync(abs));
  }
  return files;
}

/**
 * Asserts the workspace now equals `before` with exactly `changes` applied, byte for byte;
 * `ignore` names generated files (dotnet's bin/ and obj/) that are not the person's.
 */
export function assertAccounted(dir: string, before: WorkspaceBytes, changes: ExpectedChanges = {}, ignore?: RegExp): void {
  const expected = new Map(before);
  for (const [rel, content] of Object.entries(changes)) {
    if (content === null) expected.delete(rel);
    else expected.set(rel, Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'));
  }
  const show = (files: WorkspaceBytes): Record<string, string> =>
    Object.fromEntries([...files].sort(([a], [b]) => a.localeCompare(b)).map(([rel, bytes]) => [rel, bytes.toString('base64')]));
  assert.deepEqual(
    show(workspaceBytes(dir, ignore)),
    show(expected),
    'every workspace file is its original or its expected edit, and nothing else appeared',
  );
}

/** Every file and folder, .ironbees included, with its bytes: what a refused run must leave exactly as it was. */
export function allBytes(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((rel) => {
        const abs = path.join(dir, rel);
        return [rel, fs.statSync(abs).isFile() ? fs.readFileSync(abs, 'base64') : '<dir>'];
      }),
  );
}
