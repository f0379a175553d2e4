// `ironbees rewind`: the files the run touched get a checkpoint's bytes (files it touched only after
// the checkpoint get what they held before the run), the run's state goes back to that checkpoint's
// and waits at WAIT_HUMAN for the person's guidance. What was tried after it is set aside, not lost:
// the context's `rewinds` keeps those iterations (HANDOFF.md, the panel) and the trace a `rewind` line.
// A file someone else changed since the run last wrote it is never overwritten without `force`.
// Write-ahead, like an apply (edit-journal-wal.ts): `checkpoints/rewind-intent.json` names every file
// with the hash it held and the hash it gets, and the state to save, before the first write; a rewind
// cut short is rolled forward by the next command on the run (files holding neither hash are kept).

import * as path from 'node:path';
import type { Snapshot } from 'xstate';
import { AgentModeError, ConfigurationError } from '../errors';
import type { IterationRecord } from '../model';
import type { CheckpointManifest, CheckpointSummary } from './checkpoint-store';
import { resolveCheckpoint } from './checkpoints';
import { sha256 } from './edit-journal-wal';
import { iterationsOf, renderHandoff } from './handoff';
import type { RewindRecord, RunContext } from './run-context';
import { toCodingState } from './coding-state';
import type { PersistedRun, RunStore } from './store';

/** Files changed by someone else since the run last wrote them: nothing was written. */
export class RewindConflictError extends ConfigurationError {
  constructor(
    runId: string,
    readonly files: readonly string[],
  ) {
    super(
      `${files.join(', ')} changed since run ${runId} last wrote ${files.length === 1 ? 'it' : 'them'}; nothing was rewound (the changes are kept). ` +
        'Rewind with --force to overwrite them with the checkpoint.',
      { runId, files },
    );
  }
}

export interface RewindReport {
  checkpoint: CheckpointSummary;
  /** Files written with the checkpoint's bytes (or the bytes from before the run). */
  restored: string[];
  /** Files the run created after the checkpoint, deleted. */
  deleted: string[];
}

interface RewindIntentFile {
  path: string;
  /** What the file held when the rewind began (null: absent). */
  beforeSha: string | null;
  /** What it gets (a blob), null: deleted. */
  targetSha: string | null;
}

interface RewindIntent {
  version: 1;
  runId: string;
  checkpoint: CheckpointSummary;
  forced: boolean;
  files: RewindIntentFile[];
  run: PersistedRun;
}

const INTENT = 'rewind-intent.json';

function intentPath(store: RunStore, runId: string): string {
  return path.join(store.runDir(runId), 'checkpoints', INTENT);
}

/** Rewinds the run to the checkpoint `ref` names (an id, `plan`, `iteration:N`, `last-green`). */
export async function rewindRun(
  store: RunStore,
  runId: string,
  ref: string,
  options: { force?: boolean; now?: () => Date } = {},
): Promise<RewindReport> {
  await finishUnfinishedRewind(store, runId);
  const current = await store.load(runId);
  if (!store.isOwnRun(current)) {
    throw new ConfigurationError(
      `Run ${runId} was not created by you on this machine (its run folder came from elsewhere); Ironbees does not write files from it.`,
      { runId },
    );
  }
  const checkpoints = store.checkpoints;
  const summary = resolveCheckpoint(runId, await checkpoints.list(runId), ref);
  const manifest = await checkpoints.manifest(runId, summary.id);
  const head = await checkpoints.head(runId);
  const files: RewindIntentFile[] = [];
  const conflicts: string[] = [];
  for (const file of await checkpoints.files(runId)) {
    const onDisk = await store.host.fs.readFile(checkpoints.workspaceFile(file));
    const beforeSha = onDisk ? sha256(onDisk) : null;
    const targetSha = await targetOf(store, manifest, file);
    // The run's own last bytes, or already the checkpoint's: anything else is someone else's work.
    if (Object.hasOwn(head, file) && beforeSha !== head[file] && beforeSha !== targetSha) conflicts.push(file);
    files.push({ path: file, beforeSha, targetSha });
  }
  if (conflicts.length > 0 && options.force !== true) throw new RewindConflictError(runId, conflicts);
  const at = (options.now ?? (() => new Date()))().toISOString();
  const run = rewoundRun(current, manifest, at);
  const intent: RewindIntent = { version: 1, runId, checkpoint: summary, forced: options.force === true, files, run };
  await store.host.fs.writeFile(intentPath(store, runId), JSON.stringify(intent), { durable: true });
  return finish(store, intent, files);
}

/** The bytes a file gets: the checkpoint's, or, for a file the run touched only later, the original. */
async function targetOf(store: RunStore, manifest: CheckpointManifest, file: string): Promise<string | null> {
  const held = manifest.contents.find((c) => c.path === file);
  if (held) return held.sha256;
  const original = await store.journal.originalOf(manifest.runId, file);
  if (original === undefined || original === null) return null;
  return store.checkpoints.putBlob(manifest.runId, original, true);
}

/** The run as the checkpoint left it, waiting for the person, keeping what it spent and what it set aside. */
function rewoundRun(current: PersistedRun, manifest: CheckpointManifest, at: string): PersistedRun {
  const latest = (current.machine as { context: RunContext }).context;
  const snapshot = manifest.machine as Snapshot<unknown> & { context: RunContext };
  const base = snapshot.context;
  const keptUpTo = manifest.kind === 'plan' ? 0 : manifest.iteration;
  const record: RewindRecord = {
    at,
    checkpoint: manifest.id,
    label: manifest.label,
    fromNode: current.codingState.currentNode,
    fromIteration: latest.iterationCount,
    setAside: (latest.iterations ?? []).filter((r: IterationRecord) => r.iteration > keptUpTo),
  };
  const context: RunContext = {
    ...base,
    usage: latest.usage,
    // Guidance goes on from here: a plan checkpoint's next iteration is the first.
    iterationCount: keptUpTo === 0 ? 0 : base.iterationCount,
    iterations: (base.iterations ?? []).filter((r) => r.iteration <= keptUpTo),
    helpRequest: manifest.kind === 'escalation' ? base.helpRequest : null,
    error: null,
    rewinds: [...(latest.rewinds ?? []), record],
    handoffPath: latest.handoffPath ?? base.handoffPath,
  };
  const machine = { ...snapshot, status: 'active', value: 'WAIT_HUMAN', children: {}, context, output: undefined, error: undefined };
  return { ...current, updatedAt: at, machine, codingState: toCodingState(context, 'WAIT_HUMAN', at) };
}

/** Writes the files, then the state, trace line, hand-off and head; then closes the record. */
async function finish(store: RunStore, intent: RewindIntent, files: readonly RewindIntentFile[]): Promise<RewindReport> {
  const { runId } = intent;
  const checkpoints = store.checkpoints;
  const report: RewindReport = { checkpoint: intent.checkpoint, restored: [], deleted: [] };
  const head: Record<string, string | null> = {};
  for (const file of files) {
    const abs = checkpoints.workspaceFile(file.path);
    if (file.targetSha === null) {
      if (await store.host.fs.exists(abs)) {
        await store.host.fs.deleteFile(abs, { durable: true });
        report.deleted.push(file.path);
      }
    } else {
      await store.host.fs.writeFile(abs, await checkpoints.blob(runId, file.targetSha), { durable: true });
      report.restored.push(file.path);
    }
    head[file.path] = file.targetSha;
  }
  const state = intent.run.codingState;
  const handoffPath = await store.writeHandoff(runId, renderHandoff(state, iterationsOf(state), rewindReason(runId, intent.checkpoint)));
  await store.save({ ...intent.run, codingState: { ...state, metadata: { ...state.metadata, handoffPath } } });
  await checkpoints.setHead(runId, head);
  const rewind = lastRewind(intent.run);
  await store.appendEvent(runId, {
    kind: 'rewind',
    at: intent.run.updatedAt,
    checkpoint: intent.checkpoint.id,
    label: intent.checkpoint.label,
    fromNode: rewind.fromNode,
    fromIteration: rewind.fromIteration,
    files: files.map((f) => f.path),
    forced: intent.forced,
  });
  await store.host.fs.deleteFile(intentPath(store, runId));
  return report;
}

function lastRewind(run: PersistedRun): RewindRecord {
  const rewinds = (run.machine as { context: RunContext }).context.rewinds ?? [];
  const last = rewinds.at(-1);
  if (!last) throw new AgentModeError(`The rewind record of run ${run.runId} is missing`, 'CHECKPOINT_CORRUPT');
  return last;
}

function rewindReason(runId: string, checkpoint: CheckpointSummary): string {
  return `The run was rewound to checkpoint ${checkpoint.id} (${checkpoint.label}); it waits for guidance: \`ironbees resume ${runId} --guidance TEXT\`.`;
}

/**
 * A rewind cut short (a kill, a power loss) is rolled forward: each file still holding what it held
 * before or already the target gets the target; a file holding anything else (changed since) is kept.
 * Called by every command on the run before it reads it.
 */
export async function finishUnfinishedRewind(store: RunStore, runId: string): Promise<RewindReport | null> {
  const bytes = await store.host.fs.readFile(intentPath(store, runId));
  if (!bytes) return null;
  let intent: RewindIntent;
  try {
    intent = JSON.parse(new TextDecoder().decode(bytes)) as RewindIntent;
  } catch {
    // Writes are atomic: a record that does not parse was not written here; it is set aside.
    store.host.logger.warn(`Ignored the rewind record of run ${runId} (checkpoints/${INTENT}): it is not valid JSON.`);
    await store.host.fs.deleteFile(intentPath(store, runId));
    return null;
  }
  const files: RewindIntentFile[] = [];
  for (const file of intent.files) {
    const onDisk = await store.host.fs.readFile(store.checkpoints.workspaceFile(file.path));
    const sha = onDisk ? sha256(onDisk) : null;
    if (sha === file.beforeSha || sha === file.targetSha || intent.forced) files.push(file);
  }
  return finish(store, intent, files);
}
