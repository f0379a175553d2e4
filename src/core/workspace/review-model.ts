// The person's verdicts on the proposed files of one WAIT_DIFF_APPROVAL gate: per file, and per
// hunk inside a file. Pure (no vscode), so the rules are tested in plain Node, and one model serves
// both faces that review: the editor's diff editor and the page of `ironbees serve`. The hunks are
// the core's own (`splitHunks` of the same diffText), so hunk indexes mean the same thing everywhere.

import type { ApprovalDecision, EditType, FileDecision, FileEdit } from '../model';
import { splitHunks } from './diff';

export type HunkVerdict = 'pending' | 'accepted' | 'rejected';
export type FileReviewStatus = 'pending' | 'accepted' | 'rejected' | 'partial';

/** One file as a review shows it (the panel protocol's `FileReview` has this shape). */
export interface ReviewedFile {
  filePath: string;
  type: EditType;
  status: FileReviewStatus;
  hunkCount: number;
  rejectedHunks: number[];
  /** Each hunk's verdict so far, in diffText order. */
  hunkVerdicts: HunkVerdict[];
  /** The reasons given for single rejected hunks, by hunk index. */
  hunkReasons: Record<number, string>;
  added: number;
  removed: number;
}

export interface HunkInfo {
  index: number;
  /** 1-based, in the proposed file: the hunk's first line, usually a context line above the change. */
  newStart: number;
  /**
   * 1-based, in the proposed file: the first line the hunk changes (where the CodeLens goes). For a
   * hunk that only removes lines, the line that now follows the removed ones.
   */
  firstChangedLine: number;
  newLines: number;
  oldStart: number;
  oldLines: number;
  header: string;
}

interface FileState {
  edit: FileEdit;
  hunks: HunkInfo[];
  verdicts: HunkVerdict[];
  /** Set by a whole-file decision; hunk verdicts then follow it. */
  reason?: string;
  /** Reasons given for single hunks, by hunk index: each rejected hunk is explained with its own. */
  hunkReasons: Map<number, string>;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function hunksOf(edit: FileEdit): HunkInfo[] {
  return splitHunks(edit.diffText).map((text, index) => {
    const header = text.split('\n')[0];
    const match = HUNK_HEADER.exec(header);
    const oldStart = match ? Number(match[1]) : 1;
    const newStart = match ? Number(match[3]) : 1;
    const newLines = match ? Number(match[4] ?? '1') : 0;
    const oldLines = match ? Number(match[2] ?? '1') : 0;
    return { index, newStart, firstChangedLine: newStart + leadingContext(text), newLines, oldStart, oldLines, header };
  });
}

export class ReviewModel {
  private readonly files = new Map<string, FileState>();
  /** Whole-file verdicts of files with no hunks (an empty new file). */
  private readonly wholeFile = new Map<string, boolean>();

  constructor(
    readonly runId: string,
    edits: readonly FileEdit[],
  ) {
    for (const edit of edits) {
      const hunks = hunksOf(edit);
      this.files.set(edit.filePath, { edit, hunks, verdicts: hunks.map(() => 'pending'), hunkReasons: new Map() });
    }
  }

  get filePaths(): string[] {
    return [...this.files.keys()];
  }

  edit(filePath: string): FileEdit | undefined {
    return this.files.get(filePath)?.edit;
  }

  hunks(filePath: string): HunkInfo[] {
    return this.files.get(filePath)?.hunks ?? [];
  }

  hunkVerdict(filePath: string, index: number): HunkVerdict {
    return this.files.get(filePath)?.verdicts[index] ?? 'pending';
  }

  /** The reason given for rejecting this hunk alone, if any. */
  hunkReason(filePath: string, index: number): string | undefined {
    return this.files.get(filePath)?.hunkReasons.get(index);
  }

  has(filePath: string): boolean {
    return this.files.has(filePath);
  }

  /** Accepts or rejects a whole file. Returns false for a file that was not proposed. */
  setFile(filePath: string, accepted: boolean, reason?: string): boolean {
    const file = this.files.get(filePath);
    if (!file) return false;
    file.verdicts = file.verdicts.map(() => (accepted ? 'accepted' : 'rejected'));
    // A file with no hunks (an empty file created) still needs a verdict of its own.
    if (file.hunks.length === 0) file.verdicts = [];
    file.reason = reason;
    // A verdict on the whole file replaces what was said about its hunks.
    file.hunkReasons.clear();
    this.wholeFile.set(filePath, accepted);
    return true;
  }

  /** Accepts or rejects one hunk. Returns false when the file or hunk does not exist. */
  setHunk(filePath: string, index: number, accepted: boolean, reason?: string): boolean {
    const file = this.files.get(filePath);
    if (!file || !Number.isInteger(index) || index < 0 || index >= file.hunks.length) return false;
    file.verdicts[index] = accepted ? 'accepted' : 'rejected';
    // The reason belongs to this hunk only; an accepted hunk needs none.
    if (!accepted && reason?.trim()) file.hunkReasons.set(index, reason.trim());
    else file.hunkReasons.delete(index);
    this.wholeFile.delete(filePath);
    return true;
  }

  status(filePath: string): FileReviewStatus {
    const file = this.files.get(filePath);
    if (!file) return 'pending';
    if (file.hunks.length === 0) {
      const verdict = this.wholeFile.get(filePath);
      return verdict === undefined ? 'pending' : verdict ? 'accepted' : 'rejected';
    }
    if (file.verdicts.includes('pending')) return 'pending';
    const rejected = file.verdicts.filter((v) => v === 'rejected').length;
    if (rejected === 0) return 'accepted';
    return rejected === file.verdicts.length ? 'rejected' : 'partial';
  }

  allDecided(): boolean {
    return this.filePaths.every((filePath) => this.status(filePath) !== 'pending');
  }

  /** Files still waiting for a verdict. */
  pending(): string[] {
    return this.filePaths.filter((filePath) => this.status(filePath) === 'pending');
  }

  /** What the panel shows. */
  toFileReviews(): ReviewedFile[] {
    return [...this.files.values()].map((file) => {
      const lines = file.edit.diffText.split('\n');
      return {
        filePath: file.edit.filePath,
        type: file.edit.type,
        status: this.status(file.edit.filePath),
        hunkCount: file.hunks.length,
        rejectedHunks: rejectedIndexes(file),
        hunkVerdicts: [...file.verdicts],
        hunkReasons: Object.fromEntries(
          rejectedIndexes(file).flatMap((i) => (file.hunkReasons.has(i) ? [[i, file.hunkReasons.get(i)!]] : [])),
        ),
        added: lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length,
        removed: lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length,
      };
    });
  }

  /**
   * The decision for the core. Pending hunks count as accepted: submitting early means "the rest
   * is fine". A file whose every hunk was rejected is rejected as a file, so the coder is told so.
   */
  toDecision(): ApprovalDecision {
    const files: FileDecision[] = [...this.files.values()].map((file) => {
      const status = this.status(file.edit.filePath);
      const rejectedHunks = rejectedIndexes(file);
      // Only rejected hunks are explained: a reason left on a hunk later accepted is not sent.
      const hunkReasons: Record<number, string> = {};
      for (const index of rejectedHunks) {
        const why = file.hunkReasons.get(index);
        if (why) hunkReasons[index] = why;
      }
      if (status === 'rejected') {
        // A change rejected file by file reaches the coder through each file's `reason` alone (the
        // machine's rejectDiffs), so the reasons given for its hunks are folded into it.
        const why = [file.reason, ...Object.entries(hunkReasons).map(([index, text]) => `hunk ${Number(index) + 1}: ${text}`)]
          .filter(Boolean)
          .join('; ');
        return { filePath: file.edit.filePath, accepted: false, ...(why ? { reason: why } : {}) };
      }
      const reasons = { ...(file.reason ? { reason: file.reason } : {}), ...(Object.keys(hunkReasons).length ? { hunkReasons } : {}) };
      return { filePath: file.edit.filePath, accepted: true, ...(rejectedHunks.length ? { rejectedHunks } : {}), ...reasons };
    });
    return { type: 'APPROVE', files };
  }
}

/** Context lines (' ') before the hunk's first added or removed line. */
function leadingContext(hunkText: string): number {
  const body = hunkText.split('\n').slice(1);
  let context = 0;
  for (const line of body) {
    if (line.startsWith('+') || line.startsWith('-')) return context;
    // "\ No newline at end of file" belongs to the line before it, not to the new file.
    if (!line.startsWith('\\')) context += 1;
  }
  return 0;
}

function rejectedIndexes(file: FileState): number[] {
  return file.verdicts.flatMap((verdict, index) => (verdict === 'rejected' ? [index] : []));
}
