// The read-only documents on both sides of a review diff: the file before the edit and the file
// the agent proposes. Content providers are read-only by nature, so the person cannot edit the
// proposal by accident; they accept or reject it.

import * as vscode from 'vscode';
import type { FileEdit } from '../../core/model';
import { parseReviewUri } from './review-uris';

/** Finds the proposed edit of a file in a run (from the review in progress, or the persisted run). */
export type EditLookup = (runId: string, filePath: string) => Promise<FileEdit | undefined>;

export class ReviewDocumentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange: vscode.Event<vscode.Uri> = this.changed.event;

  constructor(private readonly lookup: EditLookup) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseReviewUri(uri);
    if (!ref) return '';
    const edit = await this.lookup(ref.runId, ref.filePath);
    if (!edit) return `// Ironbees: run ${ref.runId} has no proposed change to ${ref.filePath}.`;
    return (ref.side === 'original' ? edit.originalContent : edit.newContent) ?? '';
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
