import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentModeError, PathOutsideWorkspaceError, StateNotFoundError } from '../../../src/core/errors';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { IRONBEES_GITIGNORE, RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import type { PersistedRun } from '../../../src/core/workflow/store';
import { TempWorkspace } from './temp-workspace';
import { runInput } from './samples';

function persisted(runId: string, node: PersistedRun['codingState']['currentNode'] = 'CODE'): PersistedRun {
  const codingState = toCodingState(initialContext({ ...runInput(), stateId: runId }), node, '2025-01-01T00:00:00.000Z');
  return {
    schemaVersion: STATE_SCHEMA_VERSION,
    runId,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: codingState.timestamp,
    codingState,
    machine: { value: node },
  };
}

describe('run store', () => {
  let ws: TempWorkspace;
  let store: RunStore;
  beforeEach(() => {
    ws = new TempWorkspace();
    store = new RunStore(ws.host);
  });
  afterEach(() => ws.remove());

  it('makes sortable, distinct run ids', () => {
    const at = new Date('2025-03-04T05:06:07.000Z');
    const a = RunStore.newRunId(at);
    assert.match(a, /^20250304-050607-[0-9a-f]{6}$/);
    assert.notEqual(RunStore.newRunId(at), a);
  });

  it('refuses run ids that could leave the runs folder', () => {
    for (const bad of ['../x', 'a/b', '', 'a\\b']) assert.throws(() => store.runDir(bad), StateNotFoundError);
  });

  it('keeps what runs write out of git, without overwriting a .gitignore the person wrote', async () => {
    await store.ensureLayout();
    assert.equal(ws.read('.ironbees/.gitignore')?.toString(), IRONBEES_GITIGNORE);
    ws.write('.ironbees/.gitignore', '*\n!agents/\n');
    await store.ensureLayout();
    assert.equal(ws.read('.ironbees/.gitignore')?.toString(), '*\n!agents/\n');
  });

  it('replaces the `*` that earlier versions wrote, which hid agents/ and mcp.json too', async () => {
    ws.write('.ironbees/.gitignore', '*\n');
    await store.ensureLayout();
    assert.equal(ws.read('.ironbees/.gitignore')?.toString(), IRONBEES_GITIGNORE);
  });

  it('lets git see .ironbees/agents/ and .ironbees/mcp.json, and not runs/, tmp/ or coordination/', async function () {
    if (spawnSync('git', ['--version']).status !== 0) this.skip();
    const git = (...args: string[]): string => {
      const result = spawnSync('git', args, { cwd: ws.dir, encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };
    git('init', '-q');
    await store.ensureLayout();
    for (const file of [
      'runs/r1/state.json',
      'runs/r1/edits/0.orig',
      'tmp/build/affected-1.proj',
      'coordination/agents.json',
      'agents/coder/agent.yaml',
      'mcp.json',
    ]) {
      ws.write(`.ironbees/${file}`, 'x');
    }
    const untracked = git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3))
      .sort();
    assert.deepEqual(untracked, ['.ironbees/.gitignore', '.ironbees/agents/coder/agent.yaml', '.ironbees/mcp.json']);
  });

  it('saves and loads a run', async () => {
    const run = persisted('r1');
    await store.save(run);
    const { signature, ...loaded } = await store.load('r1');
    assert.match(signature ?? '', /^[0-9a-f]{64}$/, 'signed by this person (run-signature.ts)');
    assert.deepEqual(loaded, JSON.parse(JSON.stringify(run)));
  });

  it('says clearly when a run is missing, corrupt, or from another schema version', async () => {
    await assert.rejects(store.load('nope'), StateNotFoundError);
    ws.write('.ironbees/runs/broken/state.json', '{ not json');
    await assert.rejects(store.load('broken'), (e: Error) => e instanceof AgentModeError && e.code === 'STATE_CORRUPT');
    ws.write('.ironbees/runs/old/state.json', JSON.stringify({ ...persisted('old'), schemaVersion: 0 }));
    await assert.rejects(
      store.load('old'),
      (e: Error) => e instanceof AgentModeError && e.code === 'STATE_SCHEMA' && /version 0/.test(e.message),
    );
  });

  it('lists runs in order, skipping the ones it cannot read', async () => {
    await store.save(persisted('20250102-000000-bbbbbb', 'SUCCESS'));
    await store.save(persisted('20250101-000000-aaaaaa', 'WAIT_HUMAN'));
    ws.write('.ironbees/runs/20250103-000000-cccccc/state.json', 'garbage');
    const runs = await store.list();
    assert.deepEqual(
      runs.map((r) => [r.runId, r.currentNode]),
      [
        ['20250101-000000-aaaaaa', 'WAIT_HUMAN'],
        ['20250102-000000-bbbbbb', 'SUCCESS'],
      ],
    );
    assert.deepEqual(await new RunStore(new TempWorkspace().host).list(), []);
  });

  it('refuses edits that would land outside the workspace or in its tool folders, and writes nothing', async () => {
    await store.save(persisted('r1'));
    const escape = `../${path.basename(ws.dir)}-escape.txt`;
    for (const filePath of [escape, '.git/config', '.ironbees/runs/r1/state.json']) {
      // The bad path comes second: the good one before it must not be written either.
      await assert.rejects(
        store.journal.applyEdits('r1', [makeFileEdit('src/Fine.cs', null, 'x'), makeFileEdit(filePath, null, 'x')]),
        PathOutsideWorkspaceError,
      );
    }
    assert.equal(fs.existsSync(path.join(ws.dir, escape)), false);
    assert.equal(ws.read('src/Fine.cs'), null);
    assert.deepEqual(await store.journal.touchedFiles('r1'), []);
  });

  it('says clearly when the journal is damaged', async () => {
    await store.save(persisted('r1'));
    ws.write('src/A.cs', 'a');
    ws.write('src/B.cs', 'b');
    await store.journal.applyEdits('r1', [makeFileEdit('src/A.cs', 'a', 'b'), makeFileEdit('src/B.cs', 'b', 'c')]);
    fs.rmSync(path.join(ws.dir, '.ironbees/runs/r1/edits/1.orig'));
    await assert.rejects(
      store.journal.revert('r1'),
      (e: Error) => e instanceof AgentModeError && e.code === 'JOURNAL_CORRUPT' && /src\/B\.cs/.test(e.message),
    );
    ws.write('.ironbees/runs/r1/edits/index.json', '{ torn');
    await assert.rejects(store.journal.revert('r1'), (e: Error) => e instanceof AgentModeError && e.code === 'JOURNAL_CORRUPT');
    assert.equal(ws.read('src/A.cs')?.toString(), 'b', 'nothing was touched');
    assert.equal(ws.read('src/B.cs')?.toString(), 'c');
  });

  it('reverting a run that does not exist is an error, not a no-op', async () => {
    await assert.rejects(store.journal.revert('ghost'), StateNotFoundError);
  });

  it('writes the hand-off where the run lives', async () => {
    const where = await store.writeHandoff('r1', '# hi\n');
    assert.equal(where, store.handoffPath('r1'));
    assert.equal(ws.runFile('r1', 'HANDOFF.md'), '# hi\n');
  });
});
