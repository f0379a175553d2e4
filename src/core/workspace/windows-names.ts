// Names Windows does not treat as files: the device names (`CON`, `NUL`, `COM1`… with any extension,
// `con.cs` is the console), a name ending in a dot or a space (Windows drops them, so `a.cs.` is
// `a.cs`), and a colon (`a.cs:x` is an alternate data stream of `a.cs`). Reading `con` waits for the
// console; writing `nul` writes nothing yet "succeeds". On Windows the containment check refuses them
// for every use; elsewhere for writes, so a run never creates a file no Windows checkout could hold.

/** CON, PRN, AUX, NUL, COM0-9 and LPT0-9 (also with the superscript digits Windows reserves), any case, any extension. */
const DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\s*\..*)?$/i;

/** Why `relPath` (workspace-relative, `/` or `\` separated) names something Windows cannot hold as a file; null when it can. */
export function windowsNameProblem(relPath: string): string | null {
  for (const segment of relPath.split(/[\\/]/)) {
    if (segment === '' || segment === '.' || segment === '..') continue;
    if (DEVICE.test(segment))
      return `"${segment}" is a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension), not a file`;
    if (/[. ]$/.test(segment)) return `"${segment}" ends in a dot or a space, which Windows drops from file names`;
    if (segment.includes(':')) return `"${segment}" contains a colon, which on Windows names an alternate data stream of another file`;
  }
  return null;
}
