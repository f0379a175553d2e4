// Persisted runs: `.ironbees/runs/<runId>/` holds state.json (written atomically after every
// transition), events.jsonl (the trace), edits/ (the journal of original content, so a run can be
// reverted byte for byte: journal.ts, which alone writes the person's files) and HANDOFF.md.
// Everything goes through the Host, so the same store works in the CLI and in VS Code.

import { phaseCounts } from './phase-states';
import * as path from 'node:path';
import type { Host } from '../host';
import { randomBytes } from 'node:crypto';
import type { CodingState } from '../model';
import { AgentModeError, ConfigurationError, StateNotFoundError, errorMessage } from '../errors';
import { EditJournal } from './journal';
import { CheckpointStore } from './checkpoint-store';
import { redact, redactDeep } from '../redact';
import { visibleControls } from '../platform/text';
import type { RunSummary, TraceEvent } from '../trace';
import { appendTraceLine, holdTraceFile } from './event-log';
import { checkToolingFolder, resolveToolingPath } from '../workspace/paths';
import { isSignedHere, signRunOrders } from './run-signature';
import type { RunOrdersContext } from './run-signature';
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
  /**
   * The HMAC of the run's orders with this person's key (run-signature.ts), written by save(); a
   * run without a matching one was not made here and resumes with strict orders.
   */
  signature?: string;
}

/** The statechart context's orders of a persisted run, when its snapshot has them. */
function ordersContextOf(run: PersistedRun): RunOrdersContext | null {
  const context = (run.machine as { context?: Partial<RunOrdersContext> } | null)?.context;
  return context?.workflow ? (context as RunOrdersContext) : null;
}

export { EditConflictError } from './journal';
export type { RevertReport } from './journal';

const TEXT_DECODER = new TextDecoder();

/** A staged edit's bytes (CodeDiff): what applying it writes, so never masked in the saved run. */
const FILE_CONTENT_KEYS: readonly string[] = ['originalContent', 'newContent'];

/**
 * What Ironbees writes at run time: runs (state, trace, journal, hand-off), build and test scratch
 * files (tmp/, see tools/dotnet/build.ts) and the MCP coordination state kept outside a run.
 */
export const IRONBEES_GITIGNORE =
  '# Written by Ironbees at run time. agents/ and mcp.json are yours to commit.\nruns/\ntmp/\ncoordination/\nrun.lock\n';
const LEGACY_GITIGNORE = '*\n';

export class RunStore {
  readonly runsDir: string;
  /** Writes the person's files for the run (approved edits) and can undo them: journal.ts. */
  readonly journal: EditJournal;
  /** The run's checkpoints: the touched files' bytes at each step, and what the run last wrote (checkpoint-store.ts). */
  readonly checkpoints: CheckpointStore;

  private readonly listeners = new Set<(runId: string, event: TraceEvent) => void>();
  /** Run folders already checked by the containment check (it costs a few system calls). */
  private readonly checkedRunDirs = new Set<string>();

  constructor(readonly host: Host) {
    this.runsDir = path.join(host.workspaceRoot, '.ironbees', 'runs');
    this.journal = new EditJournal(host, {
      runsDir: this.runsDir,
      runDir: (runId) => this.runDir(runId),
      // A revert writes the journal's bytes into the person's files: never from a run not made here.
      requireRun: async (runId) => {
        const run = await this.load(runId);
        if (!this.isOwnRun(run)) {
          throw new ConfigurationError(
            `Run ${runId} was not created by you on this machine (its run folder came from elsewhere); Ironbees does not write files from it. Restore the files with git instead.`,
            { runId },
          );
        }
      },
      appendEvent: (runId, event) => this.appendEvent(runId, event),
    });
    this.checkpoints = new CheckpointStore(
      host,
      (runId) => this.runDir(runId),
      (runId) => this.journal.touchedFiles(runId),
    );
    this.journal.onApplied((runId, files) => this.checkpoints.noteWritten(runId, files));
  }

  static newRunId(now: Date = new Date()): string {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `${stamp}-${randomBytes(3).toString('hex')}`;
  }

  runDir(runId: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId === '.' || runId === '..') throw new StateNotFoundError(runId);
    const dir = path.join(this.runsDir, runId);
    // A run folder (or `.ironbees`, or `runs`) that is a link would read and write a run elsewhere.
    if (!this.checkedRunDirs.has(runId)) {
      resolveToolingPath(this.host.workspaceRoot, path.relative(this.host.workspaceRoot, dir));
      this.checkedRunDirs.add(runId);
    }
    return dir;
  }

  handoffPath(runId: string): string {
    return path.join(this.runDir(runId), 'HANDOFF.md');
  }

  /**
   * `.ironbees/` keeps its own .gitignore so what runs write never ends up in the person's commits,
   * while what people configure there (agents/, mcp.json) can be committed.
   */
  async ensureLayout(): Promise<void> {
    checkToolingFolder(this.host.workspaceRoot);
    const ignore = path.join(this.host.workspaceRoot, '.ironbees', '.gitignore');
    const bytes = await this.host.fs.readFile(ignore);
    // Earlier versions wrote `*`, which also hid agents/ and mcp.json; a file the person wrote stays.
    if (bytes === null || TEXT_DECODER.decode(bytes) === LEGACY_GITIGNORE) await this.host.fs.writeFile(ignore, IRONBEES_GITIGNORE);
  }

  /** Redacted as it is written; a staged edit's file contents are kept exact (an approval writes them). */
  async save(run: PersistedRun): Promise<void> {
    const safe = redactDeep(run, { keepKeys: FILE_CONTENT_KEYS });
    const signature = this.signatureOf(safe);
    const signed: PersistedRun = { ...safe, ...(signature ? { signature } : {}) };
    if (!signature) delete signed.signature;
    await this.host.fs.writeFile(path.join(this.runDir(run.runId), 'state.json'), JSON.stringify(signed, null, 1));
  }

  /** Whether the run's orders were signed by this person on this machine (see run-signature.ts). */
  isOwnRun(run: PersistedRun): boolean {
    try {
      return isSignedHere(run.runId, ordersContextOf(run), run.signature);
    } catch {
      return false;
    }
  }

  private signatureOf(run: PersistedRun): string | null {
    try {
      return signRunOrders(run.runId, ordersContextOf(run));
    } catch (error) {
      // No key can be kept (a read-only home): the run is saved unsigned, and resumes with strict orders.
      this.host.logger.debug(`Run ${run.runId} is saved unsigned: ${errorMessage(error)}`);
      return null;
    }
  }

  /** While the run is driven here (its lock held): its trace's next number is kept, not read again per event. */
  holdEvents(runId: string): () => void {
    return holdTraceFile(path.join(this.runDir(runId), 'events.jsonl'));
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
          ...(typeof s.metadata.revertedAt === 'string' ? { revertedAt: s.metadata.revertedAt } : {}),
          ...(s.phases?.length ? { phases: phaseCounts(s.phases) } : {}),
        });
      } catch (error) {
        this.host.logger.warn(`Skipping run ${id}: ${(error as Error).message}`);
      }
    }
    return summaries;
  }

  async writeHandoff(runId: string, markdown: string): Promise<string> {
    const target = this.handoffPath(runId);
    // Read in a terminal or an editor: the model's control characters are shown as text, never kept raw.
    await this.host.fs.writeFile(target, visibleControls(redact(markdown)));
    return target;
  }
}
