// Power loss while applying a multi-file edit set: the write-ahead record (edit-journal-wal.ts) is
// rolled forward on the next start, so no file is left half-applied; a file someone changed after
// the crash is kept; a full disk under state.json leaves the previous state intact.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node';
import type { Host } from '../../../src/core/host';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import type { PersistedRun } from '../../../src/core/workflow/store';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import type { FileEdit } from '../../../src/core/model';
import { fillDiskFor, hostLosingPower, PowerLoss } from '../../support/fault-matrix/faulty-host';
import { CALC_AFTER, CALC_BEFORE, baseline, runInput, workflow } from '../../unit/workflow/samples';
import { FakeSteps } from '../../unit/workflow/fake-steps';
import { StateStream, orchestratorOver } from '../../unit/workflow/orchestrator-harness';
import { assertAccounted } from '../../support/fault-matrix/ledger';
import type { WorkspaceBytes } from '../../support/fault-matrix/ledger';
import { SEED, seededWorkspace } from './matrix';
import type { FaultRow, RowOutcome } from './matrix';

const OTHER_AFTER = 'namespace App;\nclass Other { int X; }\n';
const text = (bytes: Buffer): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

/** Three files: one modified with a BOM and CRLFs, one modified, one created; README deleted. */
function editSet(): FileEdit[] {
  return [
    makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER),
    makeFileEdit('src/Other.cs', text(SEED['src/Other.cs']), OTHER_AFTER),
    makeFileEdit('src/New/Created.cs', null, 'class Created {}\n'),
    makeFileEdit('README.md', '# App\n', null),
  ];
}
const ALL_APPLIED = {
  'src/Calc.cs': CALC_AFTER,
  'src/Other.cs': OTHER_AFTER,
  'src/New/Created.cs': 'class Created {}\n',
  'README.md': null,
};

async function savedRun(store: RunStore, runId: string): Promise<PersistedRun> {
  const at = '2026-11-25T00:00:00.000Z';
  const run: PersistedRun = {
    schemaVersion: STATE_SCHEMA_VERSION,
    runId,
    createdAt: at,
    updatedAt: at,
    codingState: toCodingState(initialContext(runInput()), 'VALIDATE', at),
    machine: {},
  };
  await store.save(run);
  return run;
}

/** Writes to workspace files (not Ironbees' own) seen so far, to cut the power at the n-th. */
function workspaceWrites(dir: string, cutAt: number): (absPath: string) => boolean {
  let seen = 0;
  return (absPath) => !absPath.startsWith(path.join(dir, '.ironbees')) && seen++ === cutAt;
}

const INTENT = '.ironbees/runs/r1/edits/apply-intent.json';
const MARKER = '.ironbees/runs/.open-applies/r1';

/** Run r1 saved, and a start made by this version (which indexes the workspace), as before any apply. */
async function startedRun(ws: { host: Host }): Promise<void> {
  const store = new RunStore(ws.host);
  await savedRun(store, 'r1');
  assert.deepEqual(await store.journal.recoverUnfinished(), []);
}

/**
 * Applies the edit set through a host that loses power at `cut`, then starts again on a fresh
 * host (the machine rebooted) and recovers; `between` runs while the power is off.
 */
async function powerLossRow(
  cut: (dir: string) => (absPath: string, writesBefore: number) => boolean,
  between?: (dir: string) => void,
  changes: Record<string, string | null> = ALL_APPLIED,
): Promise<RowOutcome & { recovered: unknown }> {
  const { ws, before } = seededWorkspace();
  await startedRun(ws);
  const dying = new RunStore(hostLosingPower(ws.host, cut(ws.dir)));
  await assert.rejects(dying.journal.applyEdits('r1', editSet()), PowerLoss);
  between?.(ws.dir);
  const rebooted = new RunStore(createNodeHost(ws.dir));
  const recovered = await rebooted.journal.recoverUnfinished();
  assert.deepEqual(await rebooted.journal.recoverUnfinished(), [], 'a second start finds nothing left to recover');
  assert.equal(fs.existsSync(path.join(ws.dir, MARKER)), false, 'the run is no longer marked open');
  return { end: 'recovered', recovered, workspace: { dir: ws.dir, before, changes } };
}

export const journalRows: FaultRow[] = [
  {
    id: 'W1',
    fault: 'power loss after the intent record, before the first file',
    injectedAt: 'applyEdits: 1st workspace write',
    expectedEnd: 'recovered',
    run: async () => {
      const outcome = await powerLossRow((dir) => workspaceWrites(dir, 0));
      assert.deepEqual(outcome.recovered, [
        { runId: 'r1', completed: ['src/Calc.cs', 'src/Other.cs', 'src/New/Created.cs', 'README.md'], kept: [] },
      ]);
      return outcome;
    },
  },
  {
    id: 'W2',
    fault: 'power loss after the 1st of 4 files; revert afterwards restores every original',
    injectedAt: 'applyEdits: 2nd workspace write',
    expectedEnd: 'recovered',
    run: async () => {
      const outcome = await powerLossRow((dir) => workspaceWrites(dir, 1));
      const dir = outcome.workspace?.dir as string;
      assert.deepEqual(outcome.recovered, [
        { runId: 'r1', completed: ['src/Calc.cs', 'src/Other.cs', 'src/New/Created.cs', 'README.md'], kept: [] },
      ]);
      assertAccounted(dir, outcome.workspace?.before as WorkspaceBytes, ALL_APPLIED);
      // The originals were journaled for the files the recovery wrote too: revert is byte exact.
      const store = new RunStore(createNodeHost(dir));
      await store.journal.revert('r1');
      assert.deepEqual(fs.readFileSync(path.join(dir, 'src/Other.cs')), SEED['src/Other.cs']);
      assert.deepEqual(fs.readFileSync(path.join(dir, 'README.md')), SEED['README.md']);
      assert.equal(fs.existsSync(path.join(dir, 'src/New/Created.cs')), false);
      await store.journal.applyEdits('r1', editSet());
      return outcome;
    },
  },
  {
    id: 'W3',
    fault: 'power loss after the last file, before the record is marked done',
    injectedAt: 'applyEdits: done mark',
    expectedEnd: 'recovered',
    run: async () => {
      const outcome = await powerLossRow(
        (dir) => (absPath) => absPath === path.join(dir, INTENT) && fs.existsSync(path.join(dir, 'src/New/Created.cs')),
      );
      // Every file already holds its new bytes: the recovery only confirms them and closes the record.
      assert.deepEqual(outcome.recovered, [
        { runId: 'r1', completed: ['src/Calc.cs', 'src/Other.cs', 'src/New/Created.cs', 'README.md'], kept: [] },
      ]);
      return outcome;
    },
  },
  {
    id: 'W4',
    fault: 'power loss mid-set, then a person edits a file not yet written',
    injectedAt: 'applyEdits: 2nd workspace write; person edits src/Other.cs',
    expectedEnd: 'recovered',
    run: async () => {
      const mine = 'class Other { /* mine */ }\n';
      const outcome = await powerLossRow(
        (dir) => workspaceWrites(dir, 1),
        (dir) => fs.writeFileSync(path.join(dir, 'src/Other.cs'), mine),
      );
      assert.deepEqual(outcome.recovered, [
        { runId: 'r1', completed: ['src/Calc.cs', 'src/New/Created.cs', 'README.md'], kept: ['src/Other.cs'] },
      ]);
      return { ...outcome, workspace: outcome.workspace && { ...outcome.workspace, changes: { ...ALL_APPLIED, 'src/Other.cs': mine } } };
    },
  },
  {
    id: 'W6',
    fault: 'power loss mid-set, then a NEW run starts on the workspace',
    injectedAt: 'applyEdits: 2nd workspace write; next execute()',
    expectedEnd: 'recovered before the new run planned',
    run: async () => {
      const { ws, before } = seededWorkspace();
      await startedRun(ws);
      await assert.rejects(
        new RunStore(hostLosingPower(ws.host, workspaceWrites(ws.dir, 1))).journal.applyEdits('r1', editSet()),
        PowerLoss,
      );
      const host = createNodeHost(ws.dir);
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
      const controller = new AbortController();
      const stream = new StateStream(
        orchestratorOver(host, steps).execute('Another change', workflow({ workspaceRoot: ws.dir }), controller.signal),
      );
      await stream.until('PLAN');
      // Checked before the new run writes anything of its own: the old set is whole.
      assertAccounted(ws.dir, before, ALL_APPLIED);
      controller.abort();
      await stream.ends();
      return { end: 'recovered before the new run planned', workspace: { dir: ws.dir, before, changes: ALL_APPLIED } };
    },
  },
  {
    id: 'W7',
    fault: 'an open apply record that came with the files (another machine, another folder, or not JSON)',
    injectedAt: 'edits/apply-intent.json planted; next start',
    expectedEnd: 'ignored, nothing written',
    run: async () => {
      const { ws, before } = seededWorkspace();
      await startedRun(ws);
      await assert.rejects(
        new RunStore(hostLosingPower(ws.host, workspaceWrites(ws.dir, 0))).journal.applyEdits('r1', editSet()),
        PowerLoss,
      );
      const intent = path.join(ws.dir, INTENT);
      const record = JSON.parse(fs.readFileSync(intent, 'utf8')) as { hostname: string; machineId: string; workspaceRoot: string };
      for (const planted of [
        JSON.stringify({ ...record, hostname: `${record.hostname}-elsewhere`, machineId: `${record.machineId}-elsewhere` }),
        JSON.stringify({ ...record, workspaceRoot: '/home/someone/clone' }),
        '{"files": [',
      ]) {
        fs.writeFileSync(intent, planted);
        const store = new RunStore(createNodeHost(ws.dir));
        assert.deepEqual(await store.journal.recoverUnfinished(), []);
      }
      return { end: 'ignored, nothing written', workspace: { dir: ws.dir, before, changes: {} } };
    },
  },
  {
    id: 'W8',
    fault: 'power loss after the run is marked open, before its apply record is written',
    injectedAt: 'applyEdits: apply record write',
    expectedEnd: 'recovered',
    run: async () => {
      const outcome = await powerLossRow((dir) => (absPath) => absPath === path.join(dir, INTENT), undefined, {});
      // Nothing was written to the workspace, so there is nothing to finish: only the marker goes.
      assert.deepEqual(outcome.recovered, []);
      assert.equal(fs.existsSync(path.join(outcome.workspace?.dir as string, INTENT)), false);
      return outcome;
    },
  },
  {
    id: 'W9',
    fault: 'power loss after the record is marked done, before the run is unmarked',
    injectedAt: 'applyEdits: marker removal',
    expectedEnd: 'recovered',
    run: async () => {
      // The marker's first write creates it; the one cut here is its removal.
      const outcome = await powerLossRow((dir) => (absPath) => absPath === path.join(dir, MARKER) && fs.existsSync(absPath));
      assert.deepEqual(outcome.recovered, [], 'a done record is not applied again');
      assert.equal(
        (JSON.parse(fs.readFileSync(path.join(outcome.workspace?.dir as string, INTENT), 'utf8')) as { done: boolean }).done,
        true,
      );
      return outcome;
    },
  },
  {
    id: 'W10',
    fault: 'power loss under an earlier version (open record, no index); then a record left without a marker',
    injectedAt: 'applyEdits: 2nd workspace write, .open-applies/ absent; next starts',
    expectedEnd: 'recovered by one walk of runs/; afterwards only the index is read',
    run: async () => {
      const { ws, before } = seededWorkspace();
      await savedRun(new RunStore(ws.host), 'r1');
      await assert.rejects(
        new RunStore(hostLosingPower(ws.host, workspaceWrites(ws.dir, 1))).journal.applyEdits('r1', editSet()),
        PowerLoss,
      );
      // An earlier version wrote the record and no index at all.
      fs.rmSync(path.join(ws.dir, '.ironbees/runs/.open-applies'), { recursive: true });
      const store = new RunStore(createNodeHost(ws.dir));
      assert.deepEqual(await store.journal.recoverUnfinished(), [
        { runId: 'r1', completed: ['src/Calc.cs', 'src/Other.cs', 'src/New/Created.cs', 'README.md'], kept: [] },
      ]);
      assert.deepEqual(fs.readdirSync(path.join(ws.dir, '.ironbees/runs/.open-applies')), ['.indexed']);
      // From now on a record without a marker is not read (what keeps start-up flat): an open copy
      // of r1's record as run r2 is left alone, until the index is dropped and runs/ walked again.
      const r1 = JSON.parse(fs.readFileSync(path.join(ws.dir, INTENT), 'utf8')) as object;
      fs.mkdirSync(path.join(ws.dir, '.ironbees/runs/r2/edits'), { recursive: true });
      fs.writeFileSync(path.join(ws.dir, '.ironbees/runs/r2/edits/apply-intent.json'), JSON.stringify({ ...r1, runId: 'r2', done: false }));
      assert.deepEqual(await store.journal.recoverUnfinished(), []);
      fs.rmSync(path.join(ws.dir, '.ironbees/runs/.open-applies/.indexed'));
      assert.deepEqual(
        (await store.journal.recoverUnfinished()).map((report) => report.runId),
        ['r2'],
      );
      return {
        end: 'recovered by one walk of runs/; afterwards only the index is read',
        workspace: { dir: ws.dir, before, changes: ALL_APPLIED },
      };
    },
  },
  {
    id: 'D1',
    fault: 'full disk (ENOSPC) while writing state.json',
    injectedAt: 'store.save → Node fs temp file',
    expectedEnd: 'error ENOSPC, previous state.json intact',
    run: async () => {
      const { ws, before } = seededWorkspace();
      const store = new RunStore(ws.host);
      const previous = await savedRun(store, 'r1');
      const stateFile = path.join(ws.dir, '.ironbees/runs/r1/state.json');
      const bytesBefore = fs.readFileSync(stateFile);
      const restore = fillDiskFor(/state\.json\.[^/\\]*\.tmp$/);
      let end = 'saved';
      try {
        await store.save({
          ...previous,
          updatedAt: '2026-11-25T01:00:00.000Z',
          codingState: { ...previous.codingState, currentNode: 'DECIDE' },
        });
      } catch (error) {
        end = `error ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
      } finally {
        restore();
      }
      assert.deepEqual(fs.readFileSync(stateFile), bytesBefore, 'state.json is byte for byte the previous one');
      assert.deepEqual(
        fs.readdirSync(path.dirname(stateFile)).filter((f) => f.endsWith('.tmp')),
        [],
        'no temporary file left behind',
      );
      return {
        end: end === 'error ENOSPC' ? 'error ENOSPC, previous state.json intact' : end,
        workspace: { dir: ws.dir, before, changes: {} },
      };
    },
  },
];
