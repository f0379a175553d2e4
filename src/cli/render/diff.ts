// Unified diffs for a person to review in a terminal: additions green, removals red, hunk headers
// cyan. Colour comes from the caller's Colors, so a pipe or NO_COLOR gets plain text.

import type { Colors } from 'picocolors/types';
import type { FileEdit } from '../../core/model';
import { visibleControls } from '../../core/platform/text';

export interface DiffStat {
  added: number;
  removed: number;
  hunks: number;
}

type LineKind = 'header' | 'hunk' | 'added' | 'removed' | 'context';

/**
 * Each FileEdit's diffText covers one file, so everything after the first `@@` is hunk content:
 * a removed line that itself starts with "--" is still a removal, not a file header.
 */
function classify(diffText: string): Array<{ kind: LineKind; line: string }> {
  let inHunks = false;
  const lines = diffText.replace(/\n$/, '').split('\n');
  return lines.map((line) => {
    if (line.startsWith('@@')) {
      inHunks = true;
      return { kind: 'hunk', line };
    }
    if (!inHunks) return { kind: 'header', line };
    if (line.startsWith('+')) return { kind: 'added', line };
    if (line.startsWith('-')) return { kind: 'removed', line };
    return { kind: 'context', line };
  });
}

export function diffStat(diffText: string): DiffStat {
  const stat: DiffStat = { added: 0, removed: 0, hunks: 0 };
  for (const { kind } of classify(diffText)) {
    if (kind === 'added') stat.added += 1;
    else if (kind === 'removed') stat.removed += 1;
    else if (kind === 'hunk') stat.hunks += 1;
  }
  return stat;
}

/** The diff as written: a control character in a line (an escape sequence, a bidi override) is shown as text. */
export function renderDiff(diffText: string, colors: Colors): string {
  if (!diffText.trim()) return colors.dim('(no textual change)');
  const paint: Record<LineKind, (text: string) => string> = {
    header: colors.bold,
    hunk: colors.cyan,
    added: colors.green,
    removed: colors.red,
    context: (text) => text,
  };
  return classify(diffText)
    .map(({ kind, line }) => paint[kind](visibleControls(line)))
    .join('\n');
}

/** One line per file: `MODIFY src/Calc.cs (+3 -1)`. */
export function renderEditSummary(edit: FileEdit, colors: Colors): string {
  const stat = diffStat(edit.diffText);
  const counts = `${colors.green(`+${stat.added}`)} ${colors.red(`-${stat.removed}`)}`;
  return `${edit.type.padEnd(6)} ${visibleControls(edit.filePath)} (${counts})`;
}

/** A file's header and its whole diff: a person approving a change must be able to see all of it. */
export function renderFileEdit(edit: FileEdit, colors: Colors): string {
  return [colors.bold(renderEditSummary(edit, colors)), renderDiff(edit.diffText, colors)].join('\n');
}
