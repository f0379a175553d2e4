// What the whole run changed, against the files as they were before it: `ironbees-before:` documents
// read the run's journal (the bytes before its first write; the disk for a file it has not written),
// so iteration 2's proposal can be compared with the original and not with attempt 1's applied code.
// "Compare with the Original" opens one file (the proposal under review, else the file now);
// "Show Everything the Run Changed" opens every file in one multi-diff editor.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunStore } from '../../core/workflow/store';
import { Disposable } from '../lifecycle';
import { reviewUri } from './review-uris';

export const BEFORE_SCHEME = 'ironbees-before';
const DECODER = new TextDecoder();

export function beforeUri(runId: string, filePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BEFORE_SCHEME, path: `/${filePath}`, query: new URLSearchParams({ run: runId }).toString() });
}

export interface RunChangesDeps {
  store: () => RunStore;
  workspaceRoot: string;
  /** The run shown now, if any. */
  currentRunId: () => string | null;
  /** The files proposed in the review in progress (with its run), if any. */
  reviewing: () => { runId: string; files: readonly string[] } | null;
}

export class RunChanges extends Disposable {
  constructor(private readonly deps: RunChangesDeps) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, { provideTextDocumentContent: (uri) => this.before(uri) }),
    );
  }

  /** The file before the run: the journal's original, nothing for a file the run created, else the disk. */
  private async before(uri: vscode.Uri): Promise<string> {
    const runId = new URLSearchParams(uri.query).get('run');
    const filePath = uri.path.replace(/^\//, '');
    if (!runId) return '';
    const original = await this.deps.store().journal.originalOf(runId, filePath);
    if (original === null) return '';
    if (original !== undefined) return DECODER.decode(original);
    const onDisk = await vscode.workspace.fs.readFile(vscode.Uri.file(this.abs(filePath))).then(
      (bytes) => DECODER.decode(bytes),
      () => '',
    );
    return onDisk;
  }

  /** One file: before the run ↔ the proposal under review (else the file as it is now). */
  async compareWithOriginal(filePath: string, runId = this.runId()): Promise<void> {
    const review = this.deps.reviewing();
    const proposed = review && review.runId === runId && review.files.includes(filePath);
    const right = proposed ? reviewUri('proposed', runId, filePath) : vscode.Uri.file(this.abs(filePath));
    await vscode.commands.executeCommand(
      'vscode.diff',
      beforeUri(runId, filePath),
      right,
      `${path.basename(filePath)}: before the run ↔ ${proposed ? 'proposed' : 'now'}`,
      { preview: true },
    );
  }

  /** Every file the run wrote, and every file proposed now, against the files before the run, in one editor. */
  async showRunChanges(runId = this.runId()): Promise<void> {
    const written = await this.deps.store().journal.touchedFiles(runId);
    const review = this.deps.reviewing();
    const proposed = review && review.runId === runId ? review.files : [];
    const files = [...new Set([...written, ...proposed])].sort();
    if (!files.length) {
      void vscode.window.showInformationMessage(`Ironbees: run ${runId} has changed no file yet.`);
      return;
    }
    const resources = files.map((filePath) => {
      const right = proposed.includes(filePath) ? reviewUri('proposed', runId, filePath) : vscode.Uri.file(this.abs(filePath));
      return [vscode.Uri.file(this.abs(filePath)), beforeUri(runId, filePath), right];
    });
    await vscode.commands.executeCommand('vscode.changes', `Run ${runId}: everything it changed`, resources);
  }

  private runId(): string {
    const id = this.deps.reviewing()?.runId ?? this.deps.currentRunId();
    if (!id) throw new Error('There is no run to compare: start one, or open one from the history.');
    return id;
  }

  private abs(filePath: string): string {
    const abs = path.resolve(this.deps.workspaceRoot, filePath);
    const rel = path.relative(this.deps.workspaceRoot, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${filePath} is outside the workspace.`);
    return abs;
  }
}
