// URIs of the two sides of a review diff: `ironbees-original:/src/Calc.cs?run=<runId>` and
// `ironbees-proposed:/…`. The path keeps the file name (VS Code picks the language from it) and
// the run id makes the documents of two runs different documents.

import * as vscode from 'vscode';

export const ORIGINAL_SCHEME = 'ironbees-original';
export const PROPOSED_SCHEME = 'ironbees-proposed';

export type ReviewSide = 'original' | 'proposed';

export interface ReviewDocumentRef {
  side: ReviewSide;
  runId: string;
  filePath: string;
}

export function reviewUri(side: ReviewSide, runId: string, filePath: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: side === 'original' ? ORIGINAL_SCHEME : PROPOSED_SCHEME,
    path: `/${filePath}`,
    query: new URLSearchParams({ run: runId }).toString(),
  });
}

/** Null for any URI that is not one of ours. */
export function parseReviewUri(uri: vscode.Uri): ReviewDocumentRef | null {
  const side: ReviewSide | null = uri.scheme === ORIGINAL_SCHEME ? 'original' : uri.scheme === PROPOSED_SCHEME ? 'proposed' : null;
  const runId = new URLSearchParams(uri.query).get('run');
  if (!side || !runId) return null;
  return { side, runId, filePath: uri.path.replace(/^\//, '') };
}
