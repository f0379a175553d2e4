// The proposed files, as one list whatever the source: the extension's `review` message when it
// has judged hunks for this run, else the run's own codeDiffs (e.g. right after a reload, before a
// review message, or once the diffs are applied).

import type { CodingState, EditType } from '../../../src/core/model';
import type { FileReview, FileReviewStatus } from '../../../src/shared/protocol';
import { diffStats } from './format';

export interface FileRow {
  filePath: string;
  type: EditType;
  status: FileReviewStatus;
  hunkCount: number;
  rejectedHunks: number[];
  /** Each hunk's verdict so far, when the review has judged hunks. */
  hunkVerdicts?: Array<'pending' | 'accepted' | 'rejected'>;
  /** Reasons given for single rejected hunks, by hunk index. */
  hunkReasons?: Record<number, string>;
  added: number;
  removed: number;
  /** The file's unified diff (the served web page shows it inline; the editor opens its diff editor). */
  diffText?: string;
}

export function proposedFiles(run: CodingState | null, review: { runId: string; files: FileReview[] } | null): FileRow[] {
  if (run === null) return [];
  const judged = review !== null && review.runId === run.stateId ? review.files : [];
  const byPath = new Map<string, FileRow>(judged.map((f) => [f.filePath, { ...f }]));
  const rows: FileRow[] = [];
  for (const edit of run.codeDiffs) {
    const reviewed = byPath.get(edit.filePath);
    if (reviewed) {
      rows.push({ ...reviewed, diffText: edit.diffText });
      byPath.delete(edit.filePath);
      continue;
    }
    const stats = diffStats(edit.diffText);
    rows.push({
      filePath: edit.filePath,
      type: edit.type,
      status: 'pending',
      hunkCount: countHunks(edit.diffText),
      rejectedHunks: [],
      ...stats,
      diffText: edit.diffText,
    });
  }
  // Files the review knows and the state does not (yet) still deserve a row.
  rows.push(...byPath.values());
  return rows;
}

export interface ReviewTally {
  accepted: number;
  rejected: number;
  partial: number;
  pending: number;
}

export function tallyReview(rows: FileRow[]): ReviewTally {
  const tally: ReviewTally = { accepted: 0, rejected: 0, partial: 0, pending: 0 };
  for (const row of rows) tally[row.status]++;
  return tally;
}

function countHunks(diffText: string): number {
  let count = 0;
  for (const line of diffText.split('\n')) if (line.startsWith('@@')) count++;
  return count;
}
