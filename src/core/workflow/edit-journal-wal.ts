// The write-ahead record of an edit set being applied, so a crash or power loss in the middle of a
// multi-file apply never leaves the workspace half-applied. Before the first workspace file is
// written, `edits/apply-intent.json` in the run folder lists every file with the sha-256 of what it
// held and what it will hold; after the last file it is marked done. A record still open on the next
// start means the apply was cut short, and it is ROLLED FORWARD: the person approved these edits and
// the run's saved state already expects them (a resume would apply them again), so finishing the set
// is what both the person and the run asked for. A file holding neither its original nor its new
// bytes was changed by someone after the crash and is kept as it is (writes are atomic: temp file +
// rename, so a file is never torn by the crash itself).
// A start finds the open records through their markers (open-apply-index.ts), not by walking every
// run. The order of durable writes is: marker, record, workspace files (journal.ts), done mark; the
// marker's removal comes last and need not be flushed.

import * as os from 'node:os';
import * as path from 'node:path';
import type { Host } from '../host';
import type { FileEdit } from '../model';
import { createHash } from 'node:crypto';
import { machineId } from './machine-id';
import { pathsIgnoreCase, samePath } from '../workspace/path-case';
import { OpenApplyIndex } from './open-apply-index';
import { onThisMachine } from './run-lock';

export const INTENT_FILE = 'apply-intent.json';

export interface IntentFile {
  filePath: string;
  type: FileEdit['type'];
  /** sha-256 (hex) of the bytes the file held before the set; null when it did not exist. */
  originalSha256: string | null;
  /** What the file holds once applied; null for a deleted file. */
  newContent: string | null;
  /** The edit as approved, so recovery writes exactly what the apply would have. */
  originalContent: string | null;
  diffText: string;
}

export interface IntentRecord {
  version: 1;
  runId: string;
  startedAt: string;
  /**
   * Where the apply ran. Only a record written on this machine for this workspace folder is
   * recovered: a record that came with the files (a cloned repo carrying .ironbees/) must not
   * write anything nobody reviewed here.
   */
  hostname: string;
  /** This machine's id (machine-id.ts), which outlives a change of host name; absent in older records. */
  machineId?: string;
  workspaceRoot: string;
  done: boolean;
  files: IntentFile[];
}

/** What a recovery did for one run's unfinished apply. */
export interface RecoveryReport {
  runId: string;
  /** Files now holding their approved new content (written by the recovery or already there). */
  completed: string[];
  /** Files changed by someone after the crash: left as they are. */
  kept: string[];
}

const ENCODER = new TextEncoder();

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class ApplyIntentLog {
  private readonly index: OpenApplyIndex;

  constructor(
    private readonly host: Host,
    private readonly runDir: (runId: string) => string,
    private readonly runsDir: string,
  ) {
    this.index = new OpenApplyIndex(host, runsDir);
  }

  private intentPath(runId: string): string {
    return path.join(this.runDir(runId), 'edits', INTENT_FILE);
  }

  /** Marks the run open, then writes the intent (durably, atomically), before the first workspace file is touched. */
  async begin(runId: string, edits: readonly FileEdit[]): Promise<void> {
    const files = edits.map((edit): IntentFile => ({
      filePath: edit.filePath,
      type: edit.type,
      originalSha256: edit.originalContent === null ? null : sha256(edit.originalContent),
      newContent: edit.type === 'DELETE' ? null : edit.newContent,
      originalContent: edit.originalContent,
      diffText: edit.diffText,
    }));
    await this.index.mark(runId);
    await this.write({
      version: 1,
      runId,
      startedAt: new Date().toISOString(),
      hostname: os.hostname(),
      machineId: machineId(),
      workspaceRoot: this.host.workspaceRoot,
      done: false,
      files,
    });
  }

  /** Marks the set applied (after the last file is durably on disk), then drops the run from the index. */
  async finish(runId: string): Promise<void> {
    const record = await this.read(runId);
    if (record && !record.done) await this.write({ ...record, done: true });
    await this.index.unmark(runId);
  }

  /** The run's open record written here, or null when there is none, its apply finished or it came from elsewhere. */
  async unfinished(runId: string): Promise<IntentRecord | null> {
    const record = await this.read(runId);
    return record && this.isOurs(record) && !record.done ? record : null;
  }

  /**
   * The open records whose apply was cut short, each read once. Only the runs in the index are read
   * (after a one-time walk of runs/ written by an earlier version: open-apply-index.ts). A marker
   * whose record is missing (power lost before it was written) or done (lost before the marker was
   * removed) is removed; one whose record came from elsewhere or does not parse stays, so that
   * record is looked at again at every start, as it always was.
   */
  async unfinishedRuns(): Promise<Array<{ runId: string; record: IntentRecord }>> {
    if (!(await this.index.isAuthoritative())) await this.indexEarlierRuns();
    const open: Array<{ runId: string; record: IntentRecord }> = [];
    for (const runId of await this.index.marked()) {
      const record = await this.read(runId);
      if (record ? record.done : !(await this.host.fs.exists(this.intentPath(runId)))) await this.index.unmark(runId);
      else if (record && this.isOurs(record)) open.push({ runId, record });
    }
    return open;
  }

  /** Marks the open records of runs written before the index existed, by walking runs/ once. */
  private async indexEarlierRuns(): Promise<void> {
    if (await this.host.fs.exists(this.runsDir)) {
      const files = await this.host.fs.listFiles(this.runsDir, { maxFiles: 100_000 });
      const runs = files.filter((f) => f.endsWith(`/edits/${INTENT_FILE}`) && f.split('/').length === 3).map((f) => f.split('/')[0]);
      for (const runId of runs.sort()) {
        if (await this.unfinished(runId)) await this.index.mark(runId);
      }
    }
    await this.index.becomeAuthoritative();
  }

  /** Written on this machine for this workspace folder (see IntentRecord.hostname). */
  private isOurs(record: IntentRecord): boolean {
    // `c:\repo` and `C:\repo` are one folder where names ignore case.
    return onThisMachine(record) && samePath(record.workspaceRoot, this.host.workspaceRoot, pathsIgnoreCase(this.host.fs));
  }

  /**
   * Splits an open record into the edits to finish (the file holds its original or its new bytes)
   * and the files someone changed since (kept).
   */
  async plan(record: IntentRecord, absOf: (filePath: string) => string): Promise<{ toApply: FileEdit[]; kept: string[] }> {
    const toApply: FileEdit[] = [];
    const kept: string[] = [];
    for (const file of record.files) {
      const onDisk = await this.host.fs.readFile(absOf(file.filePath));
      const isNew =
        file.newContent === null
          ? onDisk === null
          : onDisk !== null && Buffer.from(onDisk).equals(Buffer.from(ENCODER.encode(file.newContent)));
      const isOriginal = file.originalSha256 === null ? onDisk === null : onDisk !== null && sha256(onDisk) === file.originalSha256;
      if (isNew || isOriginal) {
        toApply.push({
          filePath: file.filePath,
          type: file.type,
          originalContent: file.originalContent,
          newContent: file.newContent,
          diffText: file.diffText,
        });
      } else {
        kept.push(file.filePath);
      }
    }
    return { toApply, kept };
  }

  private async read(runId: string): Promise<IntentRecord | null> {
    const bytes = await this.host.fs.readFile(this.intentPath(runId));
    if (!bytes) return null;
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as IntentRecord;
    } catch {
      // Writes are atomic, so a record that does not parse was not written by an apply here: it is
      // left alone, and must not stop every later run from starting.
      this.host.logger.warn(`Ignored the apply record of run ${runId} (edits/${INTENT_FILE}): it is not valid JSON.`);
      return null;
    }
  }

  private async write(record: IntentRecord): Promise<void> {
    await this.host.fs.writeFile(this.intentPath(record.runId), JSON.stringify(record, null, 1), { durable: true });
  }
}
