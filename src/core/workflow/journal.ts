// The workspace journal: the one module that writes the person's source files for a run. Approved
// edits are applied with their original bytes journaled first (`.ironbees/runs/<runId>/edits/`), so
// a run can be reverted byte for byte. Run persistence (state.json, the trace) is store.ts; this
// module only borrows the run's folder and its trace from it.

import * as path from 'node:path';
import type { Host } from '../host';
import type { FileEdit } from '../model';
import { AgentModeError } from '../errors';
import { pathsIgnoreCase, samePath } from '../workspace/path-case';
import { resolveWorkspacePath } from '../workspace/paths';
import type { TraceEvent } from '../trace';
import { ApplyIntentLog } from './edit-journal-wal';
import type { RecoveryReport } from './edit-journal-wal';

/** What the journal needs of the run store. */
export interface JournalRunAccess {
  /** `.ironbees/runs`: where the index of open apply records lives (open-apply-index.ts). */
  readonly runsDir: string;
  runDir(runId: string): string;
  /** Throws StateNotFoundError (or a corrupt-state error) when the run cannot be loaded. */
  requireRun(runId: string): Promise<void>;
  appendEvent(runId: string, event: TraceEvent): Promise<void>;
}

interface JournalEntry {
  existed: boolean;
  blob: string | null;
}
interface Journal {
  files: Record<string, JournalEntry>;
}

export interface RevertReport {
  restored: string[];
  deleted: string[];
}

const TEXT_DECODER = new TextDecoder();
const ENCODER = new TextEncoder();

/**
 * Files changed on disk since the coder read them (a person edited them while the run waited):
 * nothing was written, so their edits are intact.
 */
export class EditConflictError extends AgentModeError {
  constructor(
    runId: string,
    readonly files: readonly string[],
  ) {
    super(
      `${files.join(', ')} changed on disk after the coder read ${files.length === 1 ? 'it' : 'them'}, so the approved edits were not applied ` +
        '(nothing was written; the changes on disk are kept). Start a new run to work from the current files' +
        `; \`ironbees revert ${runId}\` undoes what this run applied before.`,
      'EDIT_CONFLICT',
      { runId, files },
    );
  }
}

/** What the edit leaves on disk: null for a deleted file. */
function writtenContent(edit: FileEdit): string | null {
  return edit.type === 'DELETE' ? null : edit.newContent;
}

/** Byte for byte: the text came from the file's exact bytes (BOM and line endings kept). */
function sameContent(bytes: Uint8Array | null, text: string | null): boolean {
  if (bytes === null || text === null) return bytes === text;
  return Buffer.from(bytes).equals(Buffer.from(ENCODER.encode(text)));
}

export class EditJournal {
  private readonly appliedListeners: Array<(runId: string, files: string[]) => Promise<void> | void> = [];
  /** The write-ahead record of the set being applied (edit-journal-wal.ts). */
  private readonly intents: ApplyIntentLog;

  constructor(
    private readonly host: Host,
    private readonly run: JournalRunAccess,
  ) {
    this.intents = new ApplyIntentLog(host, (runId) => run.runDir(runId), run.runsDir);
  }

  /** Told after a set of approved edits is on disk (the run lifecycle's "edits applied"). */
  onApplied(listener: (runId: string, files: string[]) => Promise<void> | void): void {
    this.appliedListeners.push(listener);
  }

  private journalPath(runId: string): string {
    return path.join(this.run.runDir(runId), 'edits', 'index.json');
  }

  private async readJournal(runId: string): Promise<Journal> {
    const bytes = await this.host.fs.readFile(this.journalPath(runId));
    if (!bytes) return { files: {} };
    try {
      return JSON.parse(TEXT_DECODER.decode(bytes)) as Journal;
    } catch (error) {
      throw new AgentModeError(
        `The journal of run ${runId} (edits/index.json) is not valid JSON`,
        'JOURNAL_CORRUPT',
        { runId },
        { cause: error },
      );
    }
  }

  /**
   * Writes approved edits to disk. The first time the run touches a file its original bytes are
   * journaled (before the write), so applying the same edits again after a crash is harmless and
   * revert always restores what was there before the run.
   *
   * Every file must still hold what the coder started from (or, on a resume, what the edit writes):
   * a person may have changed it while the run waited for approval, and that work must not be
   * overwritten. Any mismatch refuses the whole set before anything is written.
   */
  async applyEdits(runId: string, edits: readonly FileEdit[]): Promise<void> {
    // Edits come back from state.json on resume: check every path before the first write.
    const targets = edits.map((edit) => this.workspaceFile(edit.filePath));
    const conflicts: string[] = [];
    for (const [index, edit] of edits.entries()) {
      // What the person sees (an editor's buffer, where the host has one): the coder read the same.
      const onDisk = await this.host.fs.readFile(targets[index], { editorText: true });
      if (!sameContent(onDisk, edit.originalContent) && !sameContent(onDisk, writtenContent(edit))) conflicts.push(edit.filePath);
    }
    if (conflicts.length > 0) throw new EditConflictError(runId, conflicts);
    // Write-ahead: a crash between here and finish() is rolled forward on the next start.
    await this.intents.begin(runId, edits);
    await this.writeEdits(runId, edits);
    await this.intents.finish(runId);
    const files = edits.map((edit) => edit.filePath);
    for (const listener of this.appliedListeners) await listener(runId, files);
  }

  /**
   * Finishes every apply cut short by a crash or power loss (an open record, found through the index
   * of open records): files still holding their original or new bytes get the approved content, files
   * someone changed since are kept. Called before a run starts or resumes, under the run lock; what
   * it costs depends on the open records, not on how many runs there were.
   */
  async recoverUnfinished(): Promise<RecoveryReport[]> {
    const reports: RecoveryReport[] = [];
    for (const { runId, record } of await this.intents.unfinishedRuns()) {
      const { toApply, kept } = await this.intents.plan(record, (filePath) => this.workspaceFile(filePath));
      await this.writeEdits(runId, toApply);
      await this.intents.finish(runId);
      reports.push({ runId, completed: toApply.map((edit) => edit.filePath), kept });
    }
    return reports;
  }

  /**
   * Journals each file's original (first touch only), then writes it; files already done are rewritten
   * harmlessly. Durably: the done mark that follows must never reach the disk before these writes.
   */
  private async writeEdits(runId: string, edits: readonly FileEdit[]): Promise<void> {
    const durable = { durable: true };
    const journal = await this.readJournal(runId);
    const ignoreCase = pathsIgnoreCase(this.host.fs);
    for (const edit of edits) {
      const abs = this.workspaceFile(edit.filePath);
      // Where names ignore case, `calc.cs` after `Calc.cs` is the same file: its original is already kept.
      if (!Object.keys(journal.files).some((file) => samePath(file, edit.filePath, ignoreCase))) {
        // What the coder started from, which is also what the disk held (checked above) unless the
        // edit is already there, in which case the disk no longer shows the original.
        const original = edit.originalContent === null ? null : ENCODER.encode(edit.originalContent);
        const blob = original ? `${Object.keys(journal.files).length}.orig` : null;
        if (original && blob) await this.host.fs.writeFile(path.join(this.run.runDir(runId), 'edits', blob), original, durable);
        journal.files[edit.filePath] = { existed: original !== null, blob };
        await this.host.fs.writeFile(this.journalPath(runId), JSON.stringify(journal, null, 1), durable);
      }
      const content = writtenContent(edit);
      if (content === null) {
        if (await this.host.fs.exists(abs)) await this.host.fs.deleteFile(abs, durable);
      } else {
        await this.host.fs.writeFile(abs, content, durable);
      }
      await this.run.appendEvent(runId, { kind: 'edit_applied', at: new Date().toISOString(), filePath: edit.filePath, type: edit.type });
    }
  }

  /** Files the run has changed, workspace-relative. */
  async touchedFiles(runId: string): Promise<string[]> {
    return Object.keys((await this.readJournal(runId)).files);
  }

  /**
   * A file as it was before the run first wrote it: its bytes, `null` when the run created it, and
   * `undefined` when the run has not written it (the disk still holds what was there before).
   */
  async originalOf(runId: string, filePath: string): Promise<Uint8Array | null | undefined> {
    const entry = (await this.readJournal(runId)).files[filePath];
    if (!entry) return undefined;
    if (!entry.existed || !entry.blob) return null;
    const bytes = await this.host.fs.readFile(path.join(this.run.runDir(runId), 'edits', entry.blob));
    if (!bytes)
      throw new AgentModeError(`The journal of run ${runId} lost the original of ${filePath}`, 'JOURNAL_CORRUPT', { runId, filePath });
    return bytes;
  }

  /** Restores every file the run changed to its original bytes, deleting files it created. */
  async revert(runId: string): Promise<RevertReport> {
    await this.run.requireRun(runId);
    const journal = await this.readJournal(runId);
    const report: RevertReport = { restored: [], deleted: [] };
    // Read every original and check every path first: a damaged journal must not leave a half-reverted workspace.
    const entries: { filePath: string; abs: string; original: Uint8Array | null }[] = [];
    for (const [filePath, entry] of Object.entries(journal.files)) {
      const abs = this.workspaceFile(filePath);
      if (!entry.existed || !entry.blob) {
        entries.push({ filePath, abs, original: null });
        continue;
      }
      const original = await this.host.fs.readFile(path.join(this.run.runDir(runId), 'edits', entry.blob));
      if (!original)
        throw new AgentModeError(`The journal of run ${runId} lost the original of ${filePath}`, 'JOURNAL_CORRUPT', { runId, filePath });
      entries.push({ filePath, abs, original });
    }
    for (const { filePath, abs, original } of entries) {
      if (original) {
        await this.host.fs.writeFile(abs, original);
        report.restored.push(filePath);
      } else if (await this.host.fs.exists(abs)) {
        await this.host.fs.deleteFile(abs);
        report.deleted.push(filePath);
      }
    }
    return report;
  }

  /**
   * The absolute path of a workspace file to write; throws PathOutsideWorkspaceError for anything
   * outside it or through a symbolic link (a link may have appeared since the coder staged the edit).
   */
  private workspaceFile(filePath: string): string {
    return resolveWorkspacePath(this.host.workspaceRoot, filePath, { forWrite: true }).abs;
  }
}
