// The code review as comments in the editor (the Comments API): each issue of the review of the run
// the panel shows is a read-only thread on its file at its line, on the file in the workspace and,
// while the run waits for a diff approval, on the proposed side of the files under review
// (review/review-uris.ts), where the next attempt at the issue is read. The threads follow the
// shown run: a new review or a new diff review replaces them; a new run, a reverted run or the
// extension going away removes them. A run in a git worktree of its own gets none (its lines are
// the worktree's).

import * as vscode from 'vscode';
import type { CodingState, ReviewResult } from '../core/model';
import { worktreeRunRecord } from '../core/workflow/worktree-runs';
import { Disposable } from './lifecycle';
import type { ReviewCommentSpec } from './review-comment-specs';
import { reviewCommentSpecs } from './review-comment-specs';
import { reviewUri } from './review/review-uris';

export const REVIEW_COMMENTS_ID = 'ironbees-review';
export const REVIEW_COMMENTS_LABEL = 'Ironbees review';
const AUTHOR: vscode.CommentAuthorInformation = { name: 'Ironbees reviewer' };

export interface ReviewCommentsDeps {
  /** The workspace folder the run works in. */
  folder: vscode.Uri;
  /** The run shown now, and every change of it. */
  state: () => CodingState | null;
  onDidChangeState: vscode.Event<CodingState | null>;
}

export class ReviewComments extends Disposable {
  /**
   * One controller per review shown, disposed to remove its threads: the extension host keeps every
   * thread a controller made until the controller goes, and disposing a thread first makes that
   * second disposal an "unknown thread" error in the workbench.
   */
  private controller: vscode.CommentController | null = null;
  private current: vscode.CommentThread[] = [];
  /** The run and review the threads show: the same review arriving again keeps them. */
  private shownKey: string | null = null;

  constructor(private readonly deps: ReviewCommentsDeps) {
    super();
    this._register({ dispose: () => this.clear() });
    this._register(deps.onDidChangeState((state) => this.show(state)));
    this.show(deps.state());
  }

  /** The threads shown now, in the review's order (each issue's file thread, then its proposed side's). */
  get threads(): readonly vscode.CommentThread[] {
    return this.current;
  }

  private show(state: CodingState | null): void {
    if (this.isDisposed) return;
    const review = shownReview(state);
    const proposed = state?.currentNode === 'WAIT_DIFF_APPROVAL' ? state.codeDiffs.map((edit) => edit.filePath) : [];
    const key = state && review ? `${state.stateId}\n${proposed.join('\n')}\n${JSON.stringify(review)}` : null;
    if (key === this.shownKey) return;
    this.clear();
    this.shownKey = key;
    // A worktree run's review names lines of its worktree's files, not of the person's working tree.
    if (!state || !review || worktreeRunRecord(this.deps.folder.fsPath, state.stateId)) return;
    const specs = reviewCommentSpecs(this.deps.folder.fsPath, review);
    if (specs.length === 0) return;
    // No commenting range provider: the person cannot start threads of their own here.
    const controller = vscode.comments.createCommentController(REVIEW_COMMENTS_ID, REVIEW_COMMENTS_LABEL);
    this.controller = controller;
    for (const spec of specs) {
      this.current.push(thread(controller, vscode.Uri.joinPath(this.deps.folder, spec.path), spec));
      if (proposed.includes(spec.path)) this.current.push(thread(controller, reviewUri('proposed', state.stateId, spec.path), spec));
    }
  }

  private clear(): void {
    this.current = [];
    this.shownKey = null;
    this.controller?.dispose();
    this.controller = null;
  }
}

function thread(controller: vscode.CommentController, uri: vscode.Uri, spec: ReviewCommentSpec): vscode.CommentThread {
  // A plain MarkdownString: not trusted (no command links), no HTML, no theme icons.
  const comment: vscode.Comment = { body: new vscode.MarkdownString(spec.body), mode: vscode.CommentMode.Preview, author: AUTHOR };
  const created = controller.createCommentThread(uri, new vscode.Range(spec.line, 0, spec.line, 0), [comment]);
  created.label = spec.label;
  created.canReply = false;
  created.contextValue = `ironbees-review-${spec.severity}`;
  created.collapsibleState = spec.collapsed
    ? vscode.CommentThreadCollapsibleState.Collapsed
    : vscode.CommentThreadCollapsibleState.Expanded;
  return created;
}

/** The review worth showing: the shown run's, with issues, unless the run was reverted. */
function shownReview(state: CodingState | null): ReviewResult | null {
  const review = state?.review;
  if (!state || !review || review.criticalIssues.length === 0) return null;
  if (typeof state.metadata.revertedAt === 'string') return null;
  return review;
}
