// What a rewind would change, before it changes anything: for each file the run touched, the bytes
// it would get (the checkpoint's, or what it held before the run for a file touched only later;
// null: deleted) beside what it holds now. Read-only: the panel shows these as a diff and asks.

import type { CheckpointSummary } from './checkpoint-store';
import { resolveCheckpoint } from './checkpoints';
import { sha256 } from './edit-journal-wal';
import type { RunStore } from './store';

export interface RewindPreviewFile {
  path: string;
  /** sha-256 of what the file holds now; null: absent. */
  currentSha: string | null;
  /** sha-256 of what the rewind would write; null: it would delete the file. */
  targetSha: string | null;
}

export interface RewindPreview {
  checkpoint: CheckpointSummary;
  /** Only the files whose bytes would change, sorted by path. */
  changes: RewindPreviewFile[];
}

/** The files rewinding run `runId` to `ref` would change (nothing is written). */
export async function previewRewind(store: RunStore, runId: string, ref: string): Promise<RewindPreview> {
  const checkpoint = resolveCheckpoint(runId, await store.checkpoints.list(runId), ref);
  const changes: RewindPreviewFile[] = [];
  for (const file of await store.checkpoints.files(runId)) {
    const onDisk = await store.host.fs.readFile(store.checkpoints.workspaceFile(file));
    const target = await rewindTargetBytes(store, runId, checkpoint.id, file);
    const currentSha = onDisk ? sha256(onDisk) : null;
    const targetSha = target ? sha256(target) : null;
    if (currentSha !== targetSha) changes.push({ path: file, currentSha, targetSha });
  }
  return { checkpoint, changes };
}

/** The bytes a rewind to checkpoint `id` gives `file`: the checkpoint's, else the original; null: absent. */
export async function rewindTargetBytes(store: RunStore, runId: string, id: string, file: string): Promise<Uint8Array | null> {
  const manifest = await store.checkpoints.manifest(runId, id);
  const held = manifest.contents.find((c) => c.path === file);
  if (held) return held.sha256 === null ? null : store.checkpoints.blob(runId, held.sha256);
  return (await store.journal.originalOf(runId, file)) ?? null;
}
