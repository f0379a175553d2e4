// One key per file where the file system ignores case (Windows, macOS): `Calculator.cs` and
// `calculator.cs` are one file there, so everything that keys by path (staged edits, the project
// graph, crash recovery, the run lock) keys by the folded path and keeps the first spelling it saw.

/** Whether paths on this file system ignore case: the host says so, else the platform's default. */
export function pathsIgnoreCase(
  fileSystem?: { readonly caseInsensitive?: boolean },
  platform: NodeJS.Platform = process.platform,
): boolean {
  return fileSystem?.caseInsensitive ?? (platform === 'win32' || platform === 'darwin');
}

/** The key of `p`: as is where case matters; one Unicode form, lower case, where it does not. */
export function foldPath(p: string, ignoreCase: boolean): string {
  return ignoreCase ? p.normalize('NFC').toLowerCase() : p;
}

export function samePath(a: string, b: string, ignoreCase: boolean): boolean {
  return foldPath(a, ignoreCase) === foldPath(b, ignoreCase);
}

/** The first spelling of each path: every later spelling of the same file maps to it. */
export class PathSpellings {
  private readonly first = new Map<string, string>();

  constructor(readonly ignoreCase: boolean) {}

  /** The spelling `p` was first seen with (recording `p` when it is new). */
  canonical(p: string): string {
    const key = foldPath(p, this.ignoreCase);
    const known = this.first.get(key);
    if (known !== undefined) return known;
    this.first.set(key, p);
    return p;
  }

  /** The spelling already seen for `p`, without recording it; `p` itself when none. */
  known(p: string): string {
    return this.first.get(foldPath(p, this.ignoreCase)) ?? p;
  }
}
