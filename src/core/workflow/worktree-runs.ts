// Runs that work in a git worktree of their own (`run --worktree`): a record per run in
// `<workspace>/.ironbees/worktrees/<runId>.json` says where its worktree is, which branch and from
// which commit; the lock of such a run is its worktree's own `.ironbees/run.lock`, so several work in
// one repository at once. When the run ends its run folder is copied into the workspace's
// `.ironbees/runs/` (where `runs`, `trace` and `resume` look), the worktree is removed, and its branch
// stays only if it holds commits a person can use (a success, or a run that can be resumed).
// A run killed outright leaves its record marked active with a dead process: the next command
// finishes that end for it (`cleanLeftoverWorktrees`) and says so.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TERMINAL_NODES } from '../model';
import type { PhaseState, WorkflowNode } from '../model';
import { machineId } from './machine-id';
import type { GitRepo } from '../workspace/git-worktrees';
import { onThisMachine } from './run-lock';
import { IRONBEES_GITIGNORE } from './store';

export interface WorktreeRecord {
  runId: string;
  branch: string;
  /** The worktree's top folder. */
  path: string;
  /** The run's workspace in the worktree (the worktree's copy of the person's workspace). */
  workspace: string;
  /** The commit the branch started from. */
  base: string;
  pid: number;
  hostname: string;
  machineId: string;
  startedAt: string;
  /** Set when the run's end was done: by the run itself, or by the clean-up after a crash. */
  endedAt?: string;
  node?: WorkflowNode;
  branchKept?: boolean;
  /** A phase's worktree or a parallel run's integration worktree (parallel-worktrees.ts): its branch is never kept. */
  kind?: 'phase';
  /**
   * A parallel run's integration worktree (on `ironbees/<runId>`, the run's own id): its branch is kept
   * while the run can be resumed and holds merged phases, so a resume goes on from them
   * (parallel-resume.ts); `phases` are the run's phases as last shown.
   */
  integration?: true;
  phases?: PhaseState[];
}

const RUN_ID = /^[A-Za-z0-9._-]+$/;

export function branchFor(runId: string): string {
  return `ironbees/${runId}`;
}

/** Where records (and, by default, the worktrees themselves) are kept. */
export function worktreesDir(workspace: string): string {
  return path.join(workspace, '.ironbees', 'worktrees');
}

function recordFile(workspace: string, runId: string): string {
  return path.join(worktreesDir(workspace), `${runId}.json`);
}

export function newRecord(fields: Pick<WorktreeRecord, 'runId' | 'path' | 'workspace' | 'base'>): WorktreeRecord {
  return {
    ...fields,
    branch: branchFor(fields.runId),
    pid: process.pid,
    hostname: os.hostname(),
    machineId: machineId(),
    startedAt: new Date().toISOString(),
  };
}

export function writeRecord(workspace: string, record: WorktreeRecord): void {
  fs.mkdirSync(worktreesDir(workspace), { recursive: true });
  fs.writeFileSync(recordFile(workspace, record.runId), `${JSON.stringify(record, null, 1)}\n`);
}

/**
 * The record of `runId`, if it is one this person made on this machine and it names the run's own
 * worktree folder and branch: a record shipped in a repository is data, never a folder to delete.
 */
/**
 * The record of a run that worked in a git worktree of its own (`run --worktree`), or null for a run
 * that works in the working tree: a `--parallel` run's integration worktree and its phases' have
 * records too, but the run itself writes the working tree.
 */
export function worktreeRunRecord(workspace: string, runId: string): WorktreeRecord | null {
  const record = readRecord(workspace, runId);
  return record && isWorktreeRun(record) ? record : null;
}

/** False for the worktrees of a `--parallel` run (its integration worktree and its phases'). */
export function isWorktreeRun(record: WorktreeRecord): boolean {
  return record.kind !== 'phase';
}

export function readRecord(workspace: string, runId: string): WorktreeRecord | null {
  if (!RUN_ID.test(runId)) return null;
  let record: WorktreeRecord;
  try {
    record = JSON.parse(fs.readFileSync(recordFile(workspace, runId), 'utf8')) as WorktreeRecord;
  } catch {
    return null;
  }
  if (record.runId !== runId || record.branch !== branchFor(runId) || typeof record.path !== 'string') return null;
  if (path.basename(record.path) !== runId || typeof record.workspace !== 'string' || typeof record.base !== 'string') return null;
  if (typeof record.machineId !== 'string' || !onThisMachine(record)) return null;
  return record;
}

export function listRecords(workspace: string): WorktreeRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(worktreesDir(workspace));
  } catch {
    return [];
  }
  const records: WorktreeRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const record = readRecord(workspace, name.slice(0, -'.json'.length));
    if (record) records.push(record);
  }
  return records;
}

/** The run still works in its worktree: its process is alive on this machine. */
export function isActive(record: WorktreeRecord): boolean {
  if (record.endedAt) return false;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run folder inside the worktree, while the worktree exists. */
export function worktreeRunDir(record: WorktreeRecord): string {
  return path.join(record.workspace, '.ironbees', 'runs', record.runId);
}

/** Copies the run's folder (state, trace, journal, hand-off) into the workspace's runs. */
function keepRunFolder(workspace: string, record: WorktreeRecord): boolean {
  const from = worktreeRunDir(record);
  if (!fs.existsSync(from)) return false;
  const ironbees = path.join(workspace, '.ironbees');
  fs.mkdirSync(path.join(ironbees, 'runs'), { recursive: true });
  const ignore = path.join(ironbees, '.gitignore');
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, IRONBEES_GITIGNORE);
  fs.cpSync(from, path.join(ironbees, 'runs', record.runId), { recursive: true, force: true });
  return true;
}

export interface WorktreeEnd {
  /** Lines for the person: what was kept, what was removed. */
  lines: string[];
  branchKept: boolean;
  commits: number;
}

/**
 * The end of a worktree run, whatever the outcome: its run folder kept, its worktree removed, its
 * branch kept when it has commits and the run succeeded or can be resumed (deleted otherwise).
 * `node` is where the run stopped (null: unknown, a crash before its first state).
 */
export async function endWorktreeRun(
  repo: GitRepo,
  workspace: string,
  record: WorktreeRecord,
  node: WorkflowNode | null,
): Promise<WorktreeEnd> {
  const lines: string[] = [];
  if (keepRunFolder(workspace, record)) {
    lines.push(`The run's folder (state, trace, hand-off) is kept in ${path.join(workspace, '.ironbees', 'runs', record.runId)}.`);
  }
  await removeOwnWorktree(repo, workspace, record);
  const tip = await repo.commitOf(record.branch);
  const commits = tip ? await repo.commitsAhead(record.base, record.branch) : 0;
  const resumable = node !== null && !TERMINAL_NODES.includes(node);
  const branchKept =
    record.kind === 'phase'
      ? record.integration === true && commits > 0 && resumable
      : commits > 0 && (node === 'SUCCESS' || resumable || node === null);
  if (tip && !branchKept) await repo.deleteBranch(record.branch);
  if (branchKept && record.integration) {
    lines.push(
      `Branch ${record.branch} keeps the phases merged before the run stopped; \`ironbees resume ${record.runId}\` goes on from them.`,
    );
  } else if (branchKept) {
    lines.push(
      `Branch ${record.branch} keeps the run's ${commits} commit${commits === 1 ? '' : 's'}; bring them into your working tree with \`ironbees apply ${record.runId}\`.`,
    );
  } else {
    lines.push(
      commits > 0
        ? `Branch ${record.branch} was deleted: the run ${node ? `ended ${node}` : 'stopped without ending'}.`
        : `The run committed nothing; branch ${record.branch} was deleted.`,
    );
  }
  writeRecord(workspace, { ...record, endedAt: new Date().toISOString(), ...(node ? { node } : {}), branchKept });
  return { lines, branchKept, commits };
}

/** Removes the run's worktree; a folder git no longer knows is deleted only where Ironbees made it. */
export async function removeOwnWorktree(repo: GitRepo, workspace: string, record: WorktreeRecord): Promise<void> {
  const known = (await repo.listWorktrees()).some((w) => path.resolve(w.path) === path.resolve(record.path));
  if (known) await repo.removeWorktree(record.path);
  else await repo.git(['worktree', 'prune']);
  const own = path.join(worktreesDir(workspace), record.runId);
  if (fs.existsSync(own) && path.resolve(record.path) === path.resolve(own)) fs.rmSync(own, { recursive: true, force: true });
}

/**
 * What killed runs left: for each record of a run whose process is gone, the end it never did. Returns
 * a line per run cleaned, for the person.
 */
export async function cleanLeftoverWorktrees(repo: GitRepo, workspace: string): Promise<string[]> {
  const lines: string[] = [];
  for (const record of listRecords(workspace)) {
    if (keptPastItsRun(workspace, record)) {
      await repo.deleteBranch(record.branch).catch(() => undefined);
      writeRecord(workspace, { ...record, branchKept: false });
      lines.push(`Deleted branch ${record.branch}: run ${record.runId} ended without going on from the phases merged on it.`);
      continue;
    }
    if (record.endedAt || isActive(record)) continue;
    const node = lastNodeOf(workspace, record);
    const end = await endWorktreeRun(repo, workspace, record, node);
    lines.push(
      `Cleaned up after run ${record.runId}, which stopped without ending (process ${record.pid}): its worktree ${record.path} was removed.`,
    );
    lines.push(...end.lines);
  }
  return lines;
}

/** Whether the next command has something to clean: a run killed outright, or a branch kept for a resume that can no longer come. */
export function needsCleaning(workspace: string, record: WorktreeRecord): boolean {
  return (!record.endedAt && !isActive(record)) || keptPastItsRun(workspace, record);
}

/** An integration branch kept for a resume (endWorktreeRun) whose run has ended since, or is gone. */
function keptPastItsRun(workspace: string, record: WorktreeRecord): boolean {
  if (!record.integration || !record.endedAt || !record.branchKept) return false;
  const node = lastNodeOf(workspace, record);
  return node === null || TERMINAL_NODES.includes(node);
}

/**
 * Where the run's saved state says it was; null when it saved none. A worktree run saves in its
 * worktree; a parallel run's integration worktree belongs to the run in the person's workspace.
 */
function lastNodeOf(workspace: string, record: WorktreeRecord): WorkflowNode | null {
  const runDir = record.integration ? path.join(workspace, '.ironbees', 'runs', record.runId) : worktreeRunDir(record);
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(runDir, 'state.json'), 'utf8')) as {
      codingState?: { currentNode?: WorkflowNode };
    };
    return saved.codingState?.currentNode ?? null;
  } catch {
    return null;
  }
}

/**
 * The workspace whose `.ironbees/runs/` holds `runId` now: the worktree's while the run works there
 * (its folder is copied out when it ends), else the person's.
 */
export function workspaceHoldingRun(workspace: string, runId: string): string {
  const record = readRecord(workspace, runId);
  return record && isActive(record) && fs.existsSync(worktreeRunDir(record)) ? record.workspace : workspace;
}
