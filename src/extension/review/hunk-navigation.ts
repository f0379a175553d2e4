// The review bar's "next hunk": where it goes from the cursor. Pure (no vscode), so it is tested in
// plain Node. The bar (diff editor title and key bindings, package.json) also accepts or rejects
// the whole proposal; each of its actions shows and works only while a review is pending.

import type { ReviewModel } from '../../core/workspace/review-model';

/**
 * The hunk a key binding at the cursor means: the one whose lines hold `line` (0-based) on that side
 * of the diff, else the nearest one; null in a file with no hunks.
 */
export function hunkAt(review: ReviewModel, filePath: string, side: 'original' | 'proposed', line: number): number | null {
  const hunks = review.hunks(filePath);
  let best: { index: number; distance: number } | null = null;
  for (const hunk of hunks) {
    const first = (side === 'proposed' ? hunk.newStart : hunk.oldStart) - 1;
    const last = first + Math.max((side === 'proposed' ? hunk.newLines : hunk.oldLines) - 1, 0);
    const distance = line < first ? first - line : line > last ? line - last : 0;
    if (!best || distance < best.distance) best = { index: hunk.index, distance };
  }
  return best?.index ?? null;
}

/** Where "next hunk" goes: a line in this file, or the first hunk of another file. */
export type HunkTarget = { filePath: string; line: number };

/**
 * The hunk after `line` in `filePath` (0-based editor lines), else the first hunk of the next file
 * (pending files first, in proposal order), wrapping to the first hunk of the review.
 */
export function nextHunk(review: ReviewModel, filePath: string | undefined, line: number): HunkTarget | null {
  const files = review.filePaths;
  if (files.length === 0) return null;
  const at = filePath === undefined ? -1 : files.indexOf(filePath);
  if (filePath !== undefined && at >= 0) {
    const later = review.hunks(filePath).find((h) => h.firstChangedLine - 1 > line);
    if (later) return { filePath, line: later.firstChangedLine - 1 };
  }
  const order = [...files.slice(at + 1), ...files.slice(0, at + 1)];
  const pendingFirst = [...order.filter((f) => review.status(f) === 'pending'), ...order.filter((f) => review.status(f) !== 'pending')];
  for (const file of pendingFirst) {
    const first = review.hunks(file)[0];
    if (first) return { filePath: file, line: Math.max(first.firstChangedLine - 1, 0) };
  }
  return null;
}
