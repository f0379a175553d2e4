// One run per workspace: a run holds `.ironbees/run.lock` while it is active. Two runs on one
// workspace (two terminals, the panel and an MCP client) would both apply edits and build in the
// same obj/, so the second is refused before it writes anything, with a message naming the first.
// The lock is created atomically (`wx`); a lock left by a process that died on this machine is
// taken over; a lock from another machine (a shared folder) is never guessed about. "This machine" is
// its id in the user's cache folder (machine-id.ts), not the host name, which macOS changes with the
// network; a lock written before the id existed is judged by its host name.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceBusyError } from '../errors';
import { machineId } from './machine-id';
import { checkToolingFolder } from '../workspace/paths';

export interface RunLockInfo {
  pid: number;
  hostname: string;
  /** This machine's id (machine-id.ts); absent in locks written before it existed. */
  machineId?: string;
  runId: string;
  startedAt: string;
}

export interface RunLock {
  readonly info: RunLockInfo;
  /** Removes the lock if it is still this run's; safe to call more than once. */
  release(): void;
}

export function runLockPath(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.ironbees', 'run.lock');
}

/** Takes the workspace's run lock for `runId`, or throws WorkspaceBusyError naming the run that holds it. */
export function acquireRunLock(workspaceRoot: string, runId: string, now: Date = new Date()): RunLock {
  // The first write of every run: a `.ironbees` that is a link is refused before anything is written.
  checkToolingFolder(workspaceRoot);
  const file = runLockPath(workspaceRoot);
  const info: RunLockInfo = { pid: process.pid, hostname: os.hostname(), machineId: machineId(), runId, startedAt: now.toISOString() };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Two tries: the second only after a stale lock was removed.
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, `${JSON.stringify(info)}\n`, { flag: 'wx' });
      return heldLock(file, info);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLock(file);
    if (attempt === 0 && holder && isStale(holder)) {
      removeIfUnchanged(file, holder);
      continue;
    }
    throw busy(file, holder);
  }
}

/**
 * The release of every lock this process holds, for one shared exit listener: a listener per lock
 * made Node warn (MaxListenersExceeded) past ten concurrent runs (found by the load bench).
 */
const heldLocks = new Set<() => void>();
let exitListenerAdded = false;

function releaseOnExit(release: () => void): void {
  heldLocks.add(release);
  if (exitListenerAdded) return;
  exitListenerAdded = true;
  process.on('exit', () => {
    for (const held of [...heldLocks]) held();
  });
}

function heldLock(file: string, info: RunLockInfo): RunLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    heldLocks.delete(release);
    const current = readLock(file);
    if (current && current.pid === info.pid && current.runId === info.runId) fs.rmSync(file, { force: true });
  };
  // A process that exits without unwinding (process.exit in a handler) still leaves no lock behind.
  releaseOnExit(release);
  return { info, release };
}

function readLock(file: string): RunLockInfo | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RunLockInfo>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string' || typeof parsed.runId !== 'string') return null;
    const id = typeof parsed.machineId === 'string' ? { machineId: parsed.machineId } : {};
    return { pid: parsed.pid, hostname: parsed.hostname, ...id, runId: parsed.runId, startedAt: String(parsed.startedAt ?? '') };
  } catch {
    return null;
  }
}

/** Only a lock from this machine whose process is gone is stale: another machine's processes cannot be seen from here. */
function isStale(holder: RunLockInfo): boolean {
  if (!onThisMachine(holder)) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Written here: by this machine's id, or by the host name for a lock written before ids existed. */
export function onThisMachine(holder: { hostname: string; machineId?: string }): boolean {
  return holder.machineId !== undefined ? holder.machineId === machineId() : holder.hostname === os.hostname();
}

/** Another process may have taken the stale lock over a moment ago: remove only what was judged stale. */
function removeIfUnchanged(file: string, stale: RunLockInfo): void {
  const current = readLock(file);
  if (current && current.pid === stale.pid && current.runId === stale.runId) fs.rmSync(file, { force: true });
}

function busy(file: string, holder: RunLockInfo | null): WorkspaceBusyError {
  if (!holder) {
    return new WorkspaceBusyError(
      `Another Ironbees run is starting or in progress on this workspace (${file} exists but cannot be read). ` +
        `If no run is active, delete ${file} and try again.`,
      { runId: '', pid: 0, hostname: '', startedAt: '' },
    );
  }
  const where = onThisMachine(holder) ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.hostname}`;
  return new WorkspaceBusyError(
    `Run ${holder.runId} is in progress on this workspace (${where}, started ${holder.startedAt}); one run at a time per workspace. ` +
      `Wait for it to end or stop it (Ctrl-C in its terminal, Cancel in the panel, or cancel_run over MCP). ` +
      `If no run is active, delete ${file} and try again.`,
    holder,
  );
}
