// Tests started at MSBuild's "Build succeeded." line ran from the files on disk at that moment. A build
// that wrote a test project's output after that line (a task of the repository printing the line itself,
// early) gave those tests stale code: their run is thrown away and the tests run again from the
// finished build. Where a test project's output cannot be found, that cannot be ruled out either.

import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';

/** What a build writes beside a test assembly and a test run loads. */
const LOADED = /\.(dll|exe|pdb|json)$/i;

/**
 * True when any test project has no known assembly, or a file the tests load from its output folder
 * was written after `startedAtMs`.
 */
export async function earlyTestsMayBeStale(
  assembliesByProject: ReadonlyMap<string, readonly string[]>,
  testProjectCount: number,
  startedAtMs: number,
): Promise<boolean> {
  if (assembliesByProject.size < testProjectCount) return true;
  const folders = new Set([...assembliesByProject.values()].flat().map((assembly) => path.dirname(assembly)));
  for (const folder of folders) {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return true;
    }
    for (const name of names.filter((entry) => LOADED.test(entry))) {
      const written = await stat(path.join(folder, name)).then(
        (info) => info.mtimeMs,
        () => Number.POSITIVE_INFINITY,
      );
      if (written > startedAtMs) return true;
    }
  }
  return false;
}
