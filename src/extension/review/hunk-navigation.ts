// The review bar's "next hunk": where it goes from the cursor. Pure (no vscode), so it is tested in
// plain Node. The bar (diff editor title and key bindings, package.json) also accepts or rejects
// the whole proposal; each of its actions shows and works only while a review is pending.

import type { ReviewModel } from './review-model';

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
