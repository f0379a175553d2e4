// "Restore here" and "Back to last green" in the panel: the run's files go back to a checkpoint,
// through the core's own rewind (the one `ironbees rewind` runs). Before anything is written the
// person sees what will change — every file that would change, now ↔ the checkpoint, in one
// multi-file diff — and confirms in a modal. A file someone else changed since the run last wrote
// it is refused with the core's message, and the person may then choose "Restore anyway" (force).
// Afterwards the run waits at WAIT_HUMAN for the person's guidance (the panel's Continue).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/host';
import { RewindConflictError, acquireRunLock, previewRewind, rewindRun, rewindTargetBytes } from '../core/runtime/faces';
import type { RewindPreview } from '../core/runtime/faces';
import type { RunStore } from '../core/workflow/store';
import type { RunController } from './run-controller';
import { Disposable } from './lifecycle';

export const CHECKPOINT_SCHEME = 'ironbees-checkpoint';
export const RESTORE_CHOICE = 'Restore';
export const RESTORE_ANYWAY_CHOICE = 'Restore Anyway';
const DECODER = new TextDecoder();

/** A read-only document: what `filePath` holds at checkpoint `checkpoint` of run `runId` (empty: absent). */
export function checkpointUri(runId: string, checkpoint: string, filePath: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: CHECKPOINT_SCHEME,
    path: `/${filePath}`,
    query: new URLSearchParams({ run: runId, checkpoint }).toString(),
  });
}

/** A file that does not exist now, as an empty left side. */
function absentUri(filePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${filePath}`, query: 'absent=1' });
}

function changesTitle(label: string): string {
  return `Restore ${label}: now ↔ checkpoint`;
}

/** Closes the editor tabs whose title begins with `title` (VS Code appends the file count). */
async function closeTabsTitled(title: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.startsWith(title));
  if (tabs.length) await vscode.window.tabGroups.close(tabs);
}

export interface CheckpointRestoreDeps {
  controller: RunController;
  workspaceRoot: string;
  logger: Logger;
}

export class CheckpointRestore extends Disposable {
  constructor(private readonly deps: CheckpointRestoreDeps) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, { provideTextDocumentContent: (uri) => this.content(uri) }),
    );
  }

  private get store(): RunStore {
    return this.deps.controller.store;
  }

  /** Shows what restoring `ref` changes, asks, and rewinds; resolves once done or declined. */
  async restore(runId: string, ref: string): Promise<void> {
    const preview = await previewRewind(this.store, runId, ref);
    await this.showChanges(runId, preview);
    const { checkpoint, changes } = preview;
    const files = changes.map((c) => `${c.targetSha === null ? 'delete' : 'restore'} ${c.path}`);
    const answer = await vscode.window.showWarningMessage(
      `Restore run ${runId} to ${checkpoint.label}?`,
      {
        modal: true,
        detail:
          (files.length ? `The files get the checkpoint's bytes:\n${files.join('\n')}` : 'No file changes.') +
          '\n\nWhat was tried after it stays in the run\u2019s history; the run then waits for your guidance.',
      },
      RESTORE_CHOICE,
    );
    if (answer !== RESTORE_CHOICE) return;
    // Its left side is about to change under it: a stale "now" would mislead.
    await closeTabsTitled(changesTitle(checkpoint.label));
    try {
      await this.rewind(runId, checkpoint.id, false);
    } catch (error) {
      if (!(error instanceof RewindConflictError)) throw error;
      const again = await vscode.window.showWarningMessage(error.message, { modal: true }, RESTORE_ANYWAY_CHOICE);
      if (again !== RESTORE_ANYWAY_CHOICE) return;
      await this.rewind(runId, checkpoint.id, true);
    }
  }

  private async rewind(runId: string, id: string, force: boolean): Promise<void> {
    const { controller } = this.deps;
    await controller.stopFollowingForRewind(runId);
    // A run driven elsewhere right now (the CLI) would write over what the rewind puts back.
    const lock = acquireRunLock(this.deps.workspaceRoot, runId);
    try {
      const report = await rewindRun(this.store, runId, id, { force });
      this.deps.logger.info(
        `Rewound run ${runId} to ${report.checkpoint.id}: restored ${report.restored.length} file(s), deleted ${report.deleted.length}.`,
      );
      const files = [...report.restored, ...report.deleted];
      controller.report(
        'notice',
        `Restored run ${runId} to ${report.checkpoint.label}${files.length ? ` (${files.join(', ')})` : ''}. It waits for your guidance: Continue.`,
      );
    } finally {
      lock.release();
      await controller.showRun(runId);
    }
  }

  /** Every file that would change: now (left) ↔ the checkpoint (right), in one multi-file diff. */
  private async showChanges(runId: string, preview: RewindPreview): Promise<void> {
    if (!preview.changes.length) return;
    const resources = preview.changes.map((c) => {
      const here = vscode.Uri.file(this.abs(c.path));
      return [here, c.currentSha === null ? absentUri(c.path) : here, checkpointUri(runId, preview.checkpoint.id, c.path)];
    });
    await vscode.commands.executeCommand('vscode.changes', changesTitle(preview.checkpoint.label), resources);
  }

  private async content(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const runId = query.get('run');
    const checkpoint = query.get('checkpoint');
    if (!runId || !checkpoint) return '';
    const bytes = await rewindTargetBytes(this.store, runId, checkpoint, uri.path.replace(/^\//, ''));
    return bytes ? DECODER.decode(bytes) : '';
  }

  private abs(filePath: string): string {
    const abs = path.resolve(this.deps.workspaceRoot, filePath);
    const rel = path.relative(this.deps.workspaceRoot, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${filePath} is outside the workspace.`);
    return abs;
  }
}
