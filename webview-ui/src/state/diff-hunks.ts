// A unified diff split for drawing: the file header, then each hunk with its lines numbered on the
// original and the proposed side. Hunk k here is hunk k of the core's `splitHunks` (a hunk starts at
// each `@@` line after the header; a line inside a hunk always starts with ' ', '+', '-' or '\'),
// so a verdict the page sends names the hunk the person saw.

export type DiffLineKind = 'context' | 'added' | 'removed' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its one-character prefix. */
  text: string;
  /** 1-based line number in the original file (context and removed lines). */
  oldNumber?: number;
  /** 1-based line number in the proposed file (context and added lines). */
  newNumber?: number;
}

export interface DiffHunk {
  index: number;
  header: string;
  lines: DiffLine[];
  added: number;
  removed: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffHunks(diffText: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of diffText.replace(/\n$/, '').split('\n')) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      hunks.push({ index: hunks.length, header: line, lines: [], added: 0, removed: 0 });
      continue;
    }
    const hunk = hunks.at(-1);
    // Before the first hunk: the `---`/`+++` file header, not drawn per hunk.
    if (!hunk) continue;
    const text = line.slice(1);
    if (line.startsWith('+')) {
      hunk.lines.push({ kind: 'added', text, newNumber: newLine++ });
      hunk.added++;
    } else if (line.startsWith('-')) {
      hunk.lines.push({ kind: 'removed', text, oldNumber: oldLine++ });
      hunk.removed++;
    } else if (line.startsWith('\\')) {
      hunk.lines.push({ kind: 'note', text: line });
    } else {
      hunk.lines.push({ kind: 'context', text, oldNumber: oldLine++, newNumber: newLine++ });
    }
  }
  return hunks;
}
