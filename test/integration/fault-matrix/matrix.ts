// The fault matrix's row shape and the small workspace the in-process rows run in. A row names the
// fault, where it is injected and the end state it must reach; running it returns the end state
// reached and, where the run touches the workspace, what every file must now hold.

import * as fs from 'node:fs';
import * as os from 'node:os';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { TempWorkspace } from '../../unit/workflow/temp-workspace';
import { workspaceBytes } from '../../support/fault-matrix/ledger';
import type { ExpectedChanges, WorkspaceBytes } from '../../support/fault-matrix/ledger';
import { CALC_AFTER, CALC_BEFORE } from '../../unit/workflow/samples';

export interface RowOutcome {
  /** The end state reached: a workflow node, or what a model call / store call ended in. */
  end: string;
  /** The workspace and what every file must hold, when the scenario touches one. */
  workspace?: { dir: string; before: WorkspaceBytes; changes: ExpectedChanges; ignore?: RegExp };
}

export interface FaultRow {
  id: string;
  fault: string;
  injectedAt: string;
  expectedEnd: string;
  run(): Promise<RowOutcome>;
}

/** The bytes of the seeded workspace files (a BOM and CRLFs in one, so byte exactness shows). */
export const SEED: Record<string, Buffer> = {
  'src/Calc.cs': Buffer.from(CALC_BEFORE, 'utf8'),
  'src/Other.cs': Buffer.from('\uFEFFnamespace App;\r\nclass Other { }\r\n', 'utf8'),
  'README.md': Buffer.from('# App\n'),
};
/** What the sample edits (samples.twoFileEdits) leave: Calc fixed, Notes created. */
export const EDITED: ExpectedChanges = { 'src/Calc.cs': CALC_AFTER, 'src/Notes.md': '# Notes\n' };

/** A temp workspace holding SEED, and its snapshot. */
export function seededWorkspace(): { ws: TempWorkspace; before: WorkspaceBytes } {
  const ws = new TempWorkspace();
  for (const [rel, bytes] of Object.entries(SEED)) ws.write(rel, bytes);
  return { ws, before: workspaceBytes(ws.dir) };
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** What kill -9 leaves behind: the run lock of a process that is gone. */
export function leaveStaleLock(dir: string, runId: string): void {
  const file = path.join(dir, '.ironbees', 'run.lock');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ pid: deadPid(), hostname: os.hostname(), runId, startedAt: new Date().toISOString() })}\n`);
}
