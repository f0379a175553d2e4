// The inline diff review of a WAIT_DIFF_APPROVAL gate: opens each proposed file in VS Code's diff
// editor (original ↔ proposed, read-only), collects verdicts per file and per hunk (CodeLens,
// editor-title actions, the panel), and when every file is decided sends the core exactly that:
// APPROVE with per-file decisions and rejected hunk indexes. Opening a diff never takes the focus
// from an editor the person is typing in (diff-placement.ts).

import * as vscode from 'vscode';
import type { Logger } from '../../core/host';
import type { CodingState, FileEdit } from '../../core/model';
import type { FileReview } from '../../shared/protocol';
import type { HunkRef } from '../commands';
import { Disposable } from '../lifecycle';
import type { RunController } from '../run-controller';
import { ReviewDocumentProvider } from './diff-documents';
import { HunkCodeLensProvider } from './hunk-codelens';
import { ReviewModel } from '../../core/workspace/review-model';
import { ORIGINAL_SCHEME, PROPOSED_SCHEME, parseReviewUri, reviewUri } from './review-uris';
import { hunkAt, nextHunk } from './hunk-navigation';
import { diffPlacement } from './diff-placement';

export const REVIEWING_CONTEXT_KEY = 'ironbees.reviewing';

export interface ReviewChange {
  runId: string;
  files: FileReview[];
}

export class ReviewController extends Disposable {
  private readonly _onDidChangeReview = this._register(new vscode.EventEmitter<ReviewChange>());
  readonly onDidChangeReview: vscode.Event<ReviewChange> = this._onDidChangeReview.event;
  private model: ReviewModel | null = null;
  /** Which gate the model belongs to: a new iteration's proposal is a new review. */
  private gateKey: string | null = null;
  private submitting = false;
  /** When the person last typed or clicked in one of their own editors (ms since the epoch). */
  private personTypedAt = Number.NEGATIVE_INFINITY;
  private readonly documents: ReviewDocumentProvider;
  private readonly lenses: HunkCodeLensProvider;

  constructor(
    private readonly controller: RunController,
    private readonly logger: Logger,
  ) {
    super();
    this.documents = this._register(new ReviewDocumentProvider((runId, filePath) => this.lookup(runId, filePath)));
    this.lenses = this._register(new HunkCodeLensProvider(() => this.model));
    this._register(vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.documents));
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this.documents));
    this._register(vscode.languages.registerCodeLensProvider({ scheme: PROPOSED_SCHEME }, this.lenses));
    this._register(
      vscode.window.onDidChangeTextEditorSelection((event) => {
        const byPerson =
          event.kind === vscode.TextEditorSelectionChangeKind.Keyboard || event.kind === vscode.TextEditorSelectionChangeKind.Mouse;
        if (byPerson && parseReviewUri(event.textEditor.document.uri) === null) this.personTypedAt = Date.now();
      }),
    );
    this._register(
      controller.onDidChangeState((state) => {
        this.onState(state).catch((error: unknown) => this.logger.warn(`Review could not follow the run: ${String(error)}`));
      }),
    );
  }

  get review(): ReviewModel | null {
    return this.model;
  }

  fileReviews(): FileReview[] {
    return this.model?.toFileReviews() ?? [];
  }

  /** Opens one proposed file's diff; beside the person's editor when they have one, focused unless they are typing. */
  async openDiff(filePath: string, runId = this.model?.runId): Promise<void> {
    if (!runId) throw new Error('There is no review in progress.');
    const edit = await this.lookup(runId, filePath);
    if (!edit) throw new Error(`Run ${runId} proposes no change to ${filePath}.`);
    const active = vscode.window.activeTextEditor;
    const personIsEditing = active !== undefined && parseReviewUri(active.document.uri) === null && active.document.uri.scheme === 'file';
    const place = diffPlacement(personIsEditing, Date.now() - this.personTypedAt);
    const label = edit.type === 'CREATE' ? 'new file' : edit.type === 'DELETE' ? 'deleted' : 'proposed';
    await vscode.commands.executeCommand(
      'vscode.diff',
      reviewUri('original', runId, filePath),
      reviewUri('proposed', runId, filePath),
      `${filePath} (Ironbees: original ↔ ${label})`,
      { preview: true, preserveFocus: place.preserveFocus, viewColumn: place.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active },
    );
  }

  setFile(filePath: string, accepted: boolean, reason?: string): Promise<void> {
    const model = this.requireModel();
    if (!model.setFile(filePath, accepted, reason))
      throw new Error(`${filePath} is not among the proposed files (${model.filePaths.join(', ')}).`);
    return this.changed(filePath);
  }

  setHunk(filePath: string, hunk: number, accepted: boolean, reason?: string): Promise<void> {
    const model = this.requireModel();
    if (!model.setHunk(filePath, hunk, accepted, reason)) {
      throw new Error(`${filePath} has no hunk ${hunk + 1} in this review (it has ${model.hunks(filePath).length}).`);
    }
    return this.changed(filePath);
  }

  /** Sends the verdicts so far; undecided hunks count as accepted. */
  async submit(): Promise<void> {
    const model = this.requireModel();
    if (this.submitting) return;
    this.submitting = true;
    try {
      this.logger.info(
        `Review of run ${model.runId}: ${model
          .toFileReviews()
          .map((f) => `${f.filePath} ${f.status}`)
          .join(', ')}`,
      );
      await this.controller.decideDiffs(model.toDecision());
    } finally {
      this.submitting = false;
    }
  }

  /** Rejects the whole proposal with feedback for the coder. */
  async rejectAll(feedback: string): Promise<void> {
    this.requireModel();
    await this.controller.decideDiffs({ type: 'REJECT', feedback });
  }

  /** Accepts every file not rejected yet, whole, and sends the verdict. */
  async acceptAll(): Promise<void> {
    const model = this.requireModel();
    for (const filePath of model.pending()) model.setFile(filePath, true);
    this.lenses.refresh();
    this.fire();
    await this.submit();
  }

  /** Moves the cursor to the next hunk of the review (the next file's first when this one has no more), in the diff. */
  async goToNextHunk(): Promise<void> {
    const model = this.requireModel();
    const active = vscode.window.activeTextEditor;
    const ref = active ? parseReviewUri(active.document.uri) : null;
    const here = active && ref ? { filePath: ref.filePath, line: active.selection.active.line } : null;
    const target = nextHunk(model, here?.filePath, here?.line ?? -1);
    if (!target) return;
    const uri = reviewUri('proposed', model.runId, target.filePath).toString();
    const find = (): vscode.TextEditor | undefined => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
    if (!find()) await this.openDiff(target.filePath, model.runId);
    const editor = find();
    if (!editor) return;
    const position = new vscode.Position(target.line, 0);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** The hunk under the cursor of the active review diff (either side), for the hunk key bindings. */
  hunkAtCursor(): HunkRef | undefined {
    const active = vscode.window.activeTextEditor;
    const ref = active ? parseReviewUri(active.document.uri) : null;
    if (!active || !ref || !this.model || this.model.runId !== ref.runId) return undefined;
    const hunk = hunkAt(this.model, ref.filePath, ref.side, active.selection.active.line);
    return hunk === null ? undefined : { runId: ref.runId, filePath: ref.filePath, hunk };
  }

  /** The file of the review that an editor-title action or the palette means. */
  resolveFile(ref: unknown): string | undefined {
    if (ref instanceof vscode.Uri) return parseReviewUri(ref)?.filePath;
    if (ref && typeof ref === 'object' && typeof (ref as { filePath?: unknown }).filePath === 'string')
      return (ref as { filePath: string }).filePath;
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromEditor = active ? parseReviewUri(active) : null;
    if (fromEditor) return fromEditor.filePath;
    const pending = this.model?.pending() ?? [];
    return pending.length === 1 ? pending[0] : undefined;
  }

  private requireModel(): ReviewModel {
    if (!this.model) throw new Error('There is no review in progress: the run is not waiting for a diff approval.');
    return this.model;
  }

  private async changed(filePath: string): Promise<void> {
    const model = this.requireModel();
    this.lenses.refresh();
    this.fire();
    if (model.allDecided()) {
      await this.submit();
      return;
    }
    // That file is done: bring up the next one still waiting.
    const next = model.pending().find((path) => path !== filePath);
    if (model.status(filePath) !== 'pending' && next) await this.openDiff(next);
  }

  private async onState(state: CodingState | null): Promise<void> {
    if (state?.currentNode === 'WAIT_DIFF_APPROVAL') {
      const key = `${state.stateId}#${state.iterationCount}`;
      if (key === this.gateKey) return;
      this.gateKey = key;
      // Keep our own reference: states arrive faster than `setContext` answers, and a later state
      // may end this review (this.model = null) while we wait.
      const model = new ReviewModel(state.stateId, state.codeDiffs);
      this.model = model;
      await vscode.commands.executeCommand('setContext', REVIEWING_CONTEXT_KEY, true);
      if (this.model !== model) return;
      this.lenses.refresh();
      this.fire();
      const first = model.filePaths[0];
      if (first)
        await this.openDiff(first, model.runId).catch((error: unknown) =>
          this.logger.warn(`Could not open the diff of ${first}: ${String(error)}`),
        );
      return;
    }
    if (!this.model) return;
    const runId = this.model.runId;
    this.model = null;
    this.gateKey = null;
    await vscode.commands.executeCommand('setContext', REVIEWING_CONTEXT_KEY, false);
    this.lenses.refresh();
    this._onDidChangeReview.fire({ runId, files: [] });
    await this.closeReviewTabs();
  }

  private fire(): void {
    if (this.model) this._onDidChangeReview.fire({ runId: this.model.runId, files: this.model.toFileReviews() });
  }

  private async closeReviewTabs(): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSED_SCHEME);
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => undefined);
  }

  private async lookup(runId: string, filePath: string): Promise<FileEdit | undefined> {
    if (this.model?.runId === runId) return this.model.edit(filePath);
    const state =
      this.controller.state?.stateId === runId
        ? this.controller.state
        : (await this.controller.store.load(runId).catch(() => null))?.codingState;
    return state?.codeDiffs.find((edit) => edit.filePath === filePath);
  }
}
