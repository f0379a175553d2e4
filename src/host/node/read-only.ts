// A read-only file is refused with what to do, not replaced. Windows will not rename over one (EPERM,
// which the rename retries would only wait out), and TFVC, Perforce and ClearCase keep files read-only
// until they are checked out: on every OS a read-only file means "not yours to edit yet".

import { promises as fsp } from 'node:fs';

/** The message for a read-only `absPath` Ironbees was about to change. */
export function readOnlyMessage(absPath: string): string {
  return (
    `${absPath} is read-only, so Ironbees did not change it. Version control such as TFVC or Perforce keeps files ` +
    'read-only until they are checked out: check it out for editing (tf checkout, p4 edit) or clear its read-only flag, then try again.'
  );
}

/** Throws (code EPERM, a message saying what to do) when `absPath` is an existing file without write permission. */
export async function refuseReadOnly(absPath: string): Promise<void> {
  let mode: number;
  try {
    const stat = await fsp.stat(absPath);
    if (!stat.isFile()) return;
    mode = stat.mode;
  } catch {
    return;
  }
  // Windows reports a file with the read-only attribute as 0o444.
  if ((mode & 0o200) !== 0) return;
  throw Object.assign(new Error(readOnlyMessage(absPath)), { code: 'EPERM', path: absPath });
}
