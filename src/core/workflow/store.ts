// Persisted runs: `.ironbees/runs/<runId>/` holds state.json (written atomically after every
// transition), events.jsonl (the trace), edits/ (the journal of original content, so a run can be
// reverted byte for byte) and HANDOFF.md. Everything goes through the Host, so the same store works
// in the CLI and in VS Code.

import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Host } from '../host';
import type { CodingState, FileEdit } from '../model';
import { AgentModeError, StateNotFoundError, errorMessage } from '../errors';
import { redact, redactDeep } from '../redact';
import { resolveWorkspacePath } from '../workspace/paths';
import type { RunSummary, TraceEvent } from '../trace';
import { appendTraceLine } from './event-log';
import type { TraceLine } from './event-log';

export const STATE_SCHEMA_VERSION = 1;

export interface PersistedRun {
  schemaVersion: number;
  runId: string;
  createdAt: string;
  updatedAt: string;
  codingState: CodingState;
  /** The statechart's persisted snapshot (xstate getPersistedSnapshot), restored on resume. */
  machine: unknown;
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
  constructor(runId: string, readonly files: readonly string[]) {
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

/**
 * What Ironbees writes at run time: runs (state, trace, journal, hand-off), build and test scratch
 * files (tmp/, see tools/dotnet/build.ts) and the MCP coordination state kept outside a run.
 */
export const IRONBEES_GITIGNORE = '# Written by Ironbees at run time. agents/ and mcp.json are yours to commit.\nruns/\ntmp/\ncoordination/\nrun.lock\n';
const LEGACY_GITIGNORE = '*\n';

export class RunStore {
  readonly runsDir: string;

  private readonly listeners = new Set<(runId: string, event: TraceEvent) => void>();

  constructor(private readonly host: Host) {
    this.runsDir = path.join(host.workspaceRoot, '.ironbees', 'runs');
  }

  static newRunId(now: Date = new Date()): string {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `${stamp}-${randomBytes(3).toString('hex')}`;
  }

  runDir(runId: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(runId)) throw new StateNotFoundError(runId);
    return path.join(this.runsDir, runId);
  }

  handoffPath(runId: string): string {
    return path.join(this.runDir(runId), 'HANDOFF.md');
  }

  /**
   * `.ironbees/` keeps its own .gitignore so what runs write never ends up in the person's commits,
   * while what people configure there (agents/, mcp.json) can be committed.
   */
  async ensureLayout(): Promise<void> {
    const ignore = path.join(this.host.workspaceRoot, '.ironbees', '.gitignore');
    const bytes = await this.host.fs.readFile(ignore);
    // Earlier versions wrote `*`, which also hid agents/ and mcp.json; a file the person wrote stays.
    if (bytes === null || TEXT_DECODER.decode(bytes) === LEGACY_GITIGNORE) await this.host.fs.writeFile(ignore, IRONBEES_GITIGNORE);
  }

  async save(run: PersistedRun): Promise<void> {
    await this.host.fs.writeFile(path.join(this.runDir(run.runId), 'state.json'), JSON.stringify(run, null, 1));
  }

  async appendEvent(runId: string, event: TraceEvent): Promise<void> {
    const line = redactDeep(event);
    // Told as the event is recorded (the OTLP export), redacted as the file is; a listener's fault is its own.
    for (const listener of this.listeners) {
      try {
        listener(runId, line);
      } catch (error) {
        this.host.logger.warn(`Trace listener failed: ${errorMessage(error)}`);
      }
    }
    // Numbered and serialised per run (event-log.ts): fire-and-forget sinks must not reorder lines.
    await appendTraceLine(this.host, path.join(this.runDir(runId), 'events.jsonl'), line);
  }

  /** Calls `listener` with every event this store records from now on; returns the way to stop. */
  observe(listener: (runId: string, event: TraceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The run's events.jsonl, line by line; a torn line (a crash mid-append) is skipped. */
  async events(runId: string): Promise<TraceLine[]> {
    const bytes = await this.host.fs.readFile(path.join(this.runDir(runId), 'events.jsonl'));
    if (!bytes) return [];
    const lines: TraceLine[] = [];
    for (const text of TEXT_DECODER.decode(bytes).split('\n')) {
      if (!text.trim()) continue;
      try {
        lines.push(JSON.parse(text) as TraceLine);
      } catch {
        // Only the last line can be torn; the others were written whole.
      }
    }
    return lines;
  }

  async load(runId: string): Promise<PersistedRun> {
    const bytes = await this.host.fs.readFile(path.join(this.runDir(runId), 'state.json'));
    if (!bytes) throw new StateNotFoundError(runId);
    let run: PersistedRun;
    try {
      run = JSON.parse(TEXT_DECODER.decode(bytes)) as PersistedRun;
    } catch (error) {
      throw new AgentModeError(`state.json of run ${runId} is not valid JSON`, 'STATE_CORRUPT', { runId }, { cause: error });
    }
    if (run.schemaVersion !== STATE_SCHEMA_VERSION) {
      throw new AgentModeError(
        `Run ${runId} was saved with schema version ${run.schemaVersion}; this Ironbees reads version ${STATE_SCHEMA_VERSION}`,
        'STATE_SCHEMA',
        { runId },
      );
    }
    return run;
  }

  async list(): Promise<RunSummary[]> {
    if (!(await this.host.fs.exists(this.runsDir))) return [];
    const files = await this.host.fs.listFiles(this.runsDir, { maxFiles: 100_000 });
    const ids = files.filter((f) => f.endsWith('/state.json') && f.split('/').length === 2).map((f) => f.split('/')[0]);
    const summaries: RunSummary[] = [];
    for (const id of ids.sort()) {
      try {
        const run = await this.load(id);
        const s = run.codingState;
        summaries.push({
          runId: id,
          userRequest: s.userRequest,
          currentNode: s.currentNode,
          iterationCount: s.iterationCount,
          maxIterations: s.maxIterations,
          usage: s.usage,
          createdAt: run.createdAt,
          updatedAt: run.updatedAt,
        });
      } catch (error) {
        this.host.logger.warn(`Skipping run ${id}: ${(error as Error).message}`);
      }
    }
    return summaries;
  }

  private journalPath(runId: string): string {
    return path.join(this.runDir(runId), 'edits', 'index.json');
  }

  private async readJournal(runId: string): Promise<Journal> {
    const bytes = await this.host.fs.readFile(this.journalPath(runId));
    if (!bytes) return { files: {} };
    try {
      return JSON.parse(TEXT_DECODER.decode(bytes)) as Journal;
    } catch (error) {
      throw new AgentModeError(`The journal of run ${runId} (edits/index.json) is not valid JSON`, 'JOURNAL_CORRUPT', { runId }, { cause: error });
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
    const journal = await this.readJournal(runId);
    // Edits come back from state.json on resume: check every path before the first write.
    const targets = edits.map((edit) => this.workspaceFile(edit.filePath));
    const conflicts: string[] = [];
    for (const [index, edit] of edits.entries()) {
      const onDisk = await this.host.fs.readFile(targets[index]);
      if (!sameContent(onDisk, edit.originalContent) && !sameContent(onDisk, writtenContent(edit))) conflicts.push(edit.filePath);
    }
    if (conflicts.length > 0) throw new EditConflictError(runId, conflicts);
    for (const [index, edit] of edits.entries()) {
      const abs = targets[index];
      if (!journal.files[edit.filePath]) {
        // What the coder started from, which is also what the disk held (checked above) unless the
        // edit is already there, in which case the disk no longer shows the original.
        const original = edit.originalContent === null ? null : ENCODER.encode(edit.originalContent);
        const blob = original ? `${Object.keys(journal.files).length}.orig` : null;
        if (original && blob) await this.host.fs.writeFile(path.join(this.runDir(runId), 'edits', blob), original);
        journal.files[edit.filePath] = { existed: original !== null, blob };
        await this.host.fs.writeFile(this.journalPath(runId), JSON.stringify(journal, null, 1));
      }
      const content = writtenContent(edit);
      if (content === null) {
        if (await this.host.fs.exists(abs)) await this.host.fs.deleteFile(abs);
      } else {
        await this.host.fs.writeFile(abs, content);
      }
      await this.appendEvent(runId, { kind: 'edit_applied', at: new Date().toISOString(), filePath: edit.filePath, type: edit.type });
    }
  }

  /** Files the run has changed, workspace-relative. */
  async touchedFiles(runId: string): Promise<string[]> {
    return Object.keys((await this.readJournal(runId)).files);
  }

  /** Restores every file the run changed to its original bytes, deleting files it created. */
  async revert(runId: string): Promise<RevertReport> {
    await this.load(runId);
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
      const original = await this.host.fs.readFile(path.join(this.runDir(runId), 'edits', entry.blob));
      if (!original) throw new AgentModeError(`The journal of run ${runId} lost the original of ${filePath}`, 'JOURNAL_CORRUPT', { runId, filePath });
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

  async writeHandoff(runId: string, markdown: string): Promise<string> {
    const target = this.handoffPath(runId);
    await this.host.fs.writeFile(target, redact(markdown));
    return target;
  }
}
