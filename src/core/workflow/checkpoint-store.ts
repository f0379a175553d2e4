// A run's checkpoints (`.ironbees/runs/<runId>/checkpoints/`): the bytes of the files the run
// touched (and only those: the journal's list, never bin/ or obj/) stored once each under their
// sha-256 in blobs/, one manifest per checkpoint with the statechart's snapshot and the run's state
// there (the conversation and the steering live in that context), and index.json, the list a reader
// needs without opening the manifests (each manifest is gzipped JSON). head.json holds what the run last wrote to each file, so a
// rewind can tell the run's own bytes from a person's edit. A checkpoint costs in proportion to the
// files the run changed, not to the repository.
// Every workspace file is read through the containment check (resolveWorkspacePath), as the journal
// writes them; blobs are written before the manifest that names them, the manifest before the index.

import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Host } from '../host';
import type { CodingState, WorkflowNode } from '../model';
import { AgentModeError } from '../errors';
import { resolveWorkspacePath } from '../workspace/paths';
import { sha256 } from './edit-journal-wal';

export type CheckpointKind = 'plan' | 'iteration' | 'escalation' | 'guidance';

export interface CheckpointTests {
  total: number;
  passed: number;
  failed: number;
}

/** What `ironbees checkpoints` lists (docs/contracts.md, "Checkpoints and rewind"). */
export interface CheckpointSummary {
  id: string;
  label: string;
  kind: CheckpointKind;
  node: WorkflowNode;
  iteration: number;
  at: string;
  /** The files the run had touched there, workspace-relative. */
  files: string[];
  tests: CheckpointTests;
  green: boolean;
}

export interface CheckpointFile {
  path: string;
  /** sha-256 of the bytes the file held; null when it did not exist (the run deleted it). */
  sha256: string | null;
}

export interface CheckpointManifest extends CheckpointSummary {
  runId: string;
  contents: CheckpointFile[];
  /** The statechart's persisted snapshot at the checkpoint (its context is the run's state there). */
  machine: unknown;
}

/** What a checkpoint is made from: the run as persisted after a transition. */
export interface CheckpointSource {
  runId: string;
  machine: unknown;
  codingState: CodingState;
}

/** Paths a checkpoint never holds: build output is made again by the build, never restored. */
export function isBuildOutput(filePath: string): boolean {
  return filePath.split(/[\\/]/).some((part) => /^(bin|obj)$/i.test(part));
}

const DECODER = new TextDecoder();

export class CheckpointStore {
  constructor(
    private readonly host: Host,
    private readonly runDir: (runId: string) => string,
    /** The files the run touched, workspace-relative (the journal's list). */
    private readonly touchedFiles: (runId: string) => Promise<string[]>,
  ) {}

  private dir(runId: string): string {
    return path.join(this.runDir(runId), 'checkpoints');
  }

  private blobPath(runId: string, sha: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new AgentModeError(`Run ${runId}: "${sha}" is not a checkpoint blob name`, 'CHECKPOINT_CORRUPT');
    return path.join(this.dir(runId), 'blobs', sha);
  }

  /** The absolute path of a workspace file, through the one containment check (no escape, no link). */
  workspaceFile(filePath: string): string {
    return resolveWorkspacePath(this.host.workspaceRoot, filePath, { forWrite: true }).abs;
  }

  /** The files a checkpoint of the run holds now. */
  async files(runId: string): Promise<string[]> {
    return (await this.touchedFiles(runId)).filter((file) => !isBuildOutput(file)).sort();
  }

  /**
   * Stores the bytes once under their hash; returns the hash. A checkpoint's blobs are not flushed
   * one by one (a power loss may take the newest checkpoint's bytes, which `blob` then refuses); a
   * rewind's record relies on its blobs, so it asks for `durable`.
   */
  async putBlob(runId: string, bytes: Uint8Array, durable = false): Promise<string> {
    const sha = sha256(bytes);
    const target = this.blobPath(runId, sha);
    if (!(await this.host.fs.exists(target))) await this.host.fs.writeFile(target, bytes, { durable });
    return sha;
  }

  /** A blob's bytes, checked against their hash: a blob lost or damaged is never written to a workspace file. */
  async blob(runId: string, sha: string): Promise<Uint8Array> {
    const bytes = await this.host.fs.readFile(this.blobPath(runId, sha));
    if (!bytes || sha256(bytes) !== sha)
      throw new AgentModeError(`A checkpoint of run ${runId} lost its blob ${sha}`, 'CHECKPOINT_CORRUPT', { runId, sha });
    return bytes;
  }

  /** The current bytes of each file the run touched, stored; the file's hash, or null when it does not exist. */
  async snapshotFiles(runId: string): Promise<CheckpointFile[]> {
    // The files are read and stored side by side: a checkpoint costs about one file's time, not their sum.
    return Promise.all(
      (await this.files(runId)).map(async (file): Promise<CheckpointFile> => {
        const bytes = await this.host.fs.readFile(this.workspaceFile(file));
        return { path: file, sha256: bytes ? await this.putBlob(runId, bytes) : null };
      }),
    );
  }

  async list(runId: string): Promise<CheckpointSummary[]> {
    const bytes = await this.host.fs.readFile(path.join(this.dir(runId), 'index.json'));
    if (!bytes) return [];
    return this.parse<CheckpointSummary[]>(runId, 'index.json', bytes);
  }

  async manifest(runId: string, id: string): Promise<CheckpointManifest> {
    if (!/^c\d+$/.test(id)) throw new AgentModeError(`Run ${runId} has no checkpoint "${id}"`, 'CHECKPOINT_NOT_FOUND', { runId, id });
    const bytes = await this.host.fs.readFile(path.join(this.dir(runId), `${id}.json.gz`));
    if (!bytes) throw new AgentModeError(`Run ${runId} has no checkpoint "${id}"`, 'CHECKPOINT_NOT_FOUND', { runId, id });
    let text: Uint8Array;
    try {
      text = gunzipSync(bytes);
    } catch (error) {
      throw new AgentModeError(`checkpoints/${id}.json.gz of run ${runId} is damaged`, 'CHECKPOINT_CORRUPT', { runId }, { cause: error });
    }
    return this.parse<CheckpointManifest>(runId, `${id}.json.gz`, text);
  }

  /** Takes a checkpoint of the run as it is now; returns its summary. */
  async take(
    source: CheckpointSource,
    what: { kind: CheckpointKind; label: string; tests: CheckpointTests; green: boolean },
  ): Promise<CheckpointSummary> {
    const { runId } = source;
    const [contents, index] = await Promise.all([this.snapshotFiles(runId), this.list(runId)]);
    const summary: CheckpointSummary = {
      id: `c${index.length + 1}`,
      label: what.label,
      kind: what.kind,
      node: source.codingState.currentNode,
      iteration: source.codingState.iterationCount,
      at: source.codingState.timestamp,
      files: contents.map((c) => c.path),
      tests: what.tests,
      green: what.green,
    };
    const manifest: CheckpointManifest = { ...summary, runId, contents, machine: source.machine };
    // The snapshot repeats the staged edits' text (proposed and approved): compressed, it costs little beside the blobs.
    await this.host.fs.writeFile(path.join(this.dir(runId), `${summary.id}.json.gz`), gzipSync(JSON.stringify(manifest)));
    await this.host.fs.writeFile(path.join(this.dir(runId), 'index.json'), JSON.stringify([...index, summary], null, 1));
    return summary;
  }

  /** What the run last wrote to each file (sha-256, null for deleted); files it never wrote are absent. */
  async head(runId: string): Promise<Record<string, string | null>> {
    const bytes = await this.host.fs.readFile(path.join(this.dir(runId), 'head.json'));
    return bytes ? this.parse<Record<string, string | null>>(runId, 'head.json', bytes) : {};
  }

  async setHead(runId: string, entries: Record<string, string | null>): Promise<void> {
    const head = { ...(await this.head(runId)), ...entries };
    await this.host.fs.writeFile(path.join(this.dir(runId), 'head.json'), JSON.stringify(head, null, 1));
  }

  /** After the journal wrote these files: what they hold now is the run's own. Never fails the apply. */
  async noteWritten(runId: string, files: readonly string[]): Promise<void> {
    try {
      const entries: Record<string, string | null> = {};
      for (const file of files) {
        if (isBuildOutput(file)) continue;
        const bytes = await this.host.fs.readFile(this.workspaceFile(file));
        entries[file] = bytes ? sha256(bytes) : null;
      }
      await this.setHead(runId, entries);
    } catch (error) {
      this.host.logger.warn(
        `Run ${runId}: what it wrote was not noted for rewinds: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private parse<T>(runId: string, name: string, bytes: Uint8Array): T {
    try {
      return JSON.parse(DECODER.decode(bytes)) as T;
    } catch (error) {
      throw new AgentModeError(`checkpoints/${name} of run ${runId} is not valid JSON`, 'CHECKPOINT_CORRUPT', { runId }, { cause: error });
    }
  }
}
