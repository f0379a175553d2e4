// `Accept | Reject` above the first changed line of each hunk on the proposed side of a review
// diff, with the hunk's verdict so far. The hunks are the core's (`splitHunks`), so "hunk 2" means
// the same hunk to the person, to this lens and to the coder who is told which hunks were rejected.

import * as vscode from 'vscode';
import type { HunkRef } from '../commands';
import type { ReviewModel } from './review-model';
import { parseReviewUri } from './review-uris';

const VERDICT_LABELS = { pending: 'not decided', accepted: 'accepted', rejected: 'rejected' } as const;

export class HunkCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses: vscode.Event<void> = this.changed.event;

  constructor(private readonly currentReview: () => ReviewModel | null) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const ref = parseReviewUri(document.uri);
    const review = this.currentReview();
    if (!ref || ref.side !== 'proposed' || !review || review.runId !== ref.runId) return [];
    const hunks = review.hunks(ref.filePath);
    return hunks.flatMap((hunk) => {
      // Above the first changed line, not the hunk header three context lines up: the person sees
      // the change the lens decides. A removal at the end of the file lands on the last line.
      const line = Math.min(Math.max(hunk.firstChangedLine - 1, 0), Math.max(document.lineCount - 1, 0));
      const range = new vscode.Range(line, 0, line, 0);
      const args: HunkRef = { runId: review.runId, filePath: ref.filePath, hunk: hunk.index };
      const verdict = review.hunkVerdict(ref.filePath, hunk.index);
      return [
        new vscode.CodeLens(range, {
          title: '$(check) Accept',
          command: 'ironbees.acceptHunk',
          arguments: [args],
          tooltip: 'Keep this change',
        }),
        new vscode.CodeLens(range, {
          title: '$(close) Reject',
          command: 'ironbees.rejectHunk',
          arguments: [args],
          tooltip: 'Leave this part of the file as it was',
        }),
        new vscode.CodeLens(range, { title: `Hunk ${hunk.index + 1}/${hunks.length} · ${VERDICT_LABELS[verdict]}`, command: '' }),
      ];
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
