// On the proposed side of a review diff: a labelled review bar on the first line (which file of how
// many, its verdict, each file action with its key), and `Accept | Reject` above the first changed
// line of each hunk with the hunk's verdict so far. The hunks are the core's (`splitHunks`), so
// "hunk 2" means the same hunk to the person, to this lens and to the coder who is told which hunks
// were rejected.

import * as vscode from 'vscode';
import type { HunkRef } from '../commands';
import type { ReviewModel } from '../../core/workspace/review-model';
import { parseReviewUri } from './review-uris';
import { HUNK_ACTIONS, REVIEW_ACTIONS, keyLabel } from './review-keys';

const VERDICT_LABELS = { pending: 'not decided', accepted: 'accepted', rejected: 'rejected' } as const;
const FILE_LABELS = { pending: 'not decided', accepted: 'accepted', rejected: 'rejected', partial: 'partly accepted' } as const;

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
    return [...this.barLenses(review, ref.filePath), ...this.hunkLenses(review, ref.filePath, hunks, document)];
  }

  /** The labelled review bar on the file's first line. */
  private barLenses(review: ReviewModel, filePath: string): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const files = review.filePaths;
    const where = `Ironbees review · file ${files.indexOf(filePath) + 1} of ${files.length} · ${FILE_LABELS[review.status(filePath)]}`;
    return [
      new vscode.CodeLens(top, { title: where, command: '' }),
      ...REVIEW_ACTIONS.map(
        (action) =>
          new vscode.CodeLens(top, {
            title: `$(${action.icon}) ${action.label} (${keyLabel(action, process.platform)})`,
            command: action.command,
            arguments: action.command.endsWith('File') ? [{ filePath }] : [],
          }),
      ),
    ];
  }

  private hunkLenses(
    review: ReviewModel,
    filePath: string,
    hunks: ReturnType<ReviewModel['hunks']>,
    document: vscode.TextDocument,
  ): vscode.CodeLens[] {
    return hunks.flatMap((hunk) => {
      // Above the first changed line, not the hunk header three context lines up: the person sees
      // the change the lens decides. A removal at the end of the file lands on the last line.
      const line = Math.min(Math.max(hunk.firstChangedLine - 1, 0), Math.max(document.lineCount - 1, 0));
      const range = new vscode.Range(line, 0, line, 0);
      const args: HunkRef = { runId: review.runId, filePath, hunk: hunk.index };
      const verdict = review.hunkVerdict(filePath, hunk.index);
      return [
        new vscode.CodeLens(range, {
          title: '$(check) Accept',
          command: 'ironbees.acceptHunk',
          arguments: [args],
          tooltip: `Keep this change (${keyLabel(HUNK_ACTIONS.accept, process.platform)} at the cursor)`,
        }),
        new vscode.CodeLens(range, {
          title: '$(close) Reject',
          command: 'ironbees.rejectHunk',
          arguments: [args],
          tooltip: `Leave this part of the file as it was (${keyLabel(HUNK_ACTIONS.reject, process.platform)} at the cursor)`,
        }),
        new vscode.CodeLens(range, { title: `Hunk ${hunk.index + 1}/${hunks.length} · ${VERDICT_LABELS[verdict]}`, command: '' }),
      ];
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
