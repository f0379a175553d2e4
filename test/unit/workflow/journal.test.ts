// The workspace journal (workflow/journal.ts) on its own: approved edits written, then reverted to
// the exact bytes that were there (BOM, CRLF, non-ASCII), created files removed, deleted ones back.

import { strict as assert } from 'node:assert';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import type { Host, HostFileSystem } from '../../../src/core/host';
import { TempWorkspace } from './orchestrator-harness';
import { runInput } from './samples';

const BOM_CRLF = Buffer.from('\uFEFFclass Café {\r\n  int Add(int a, int b) => a - b;\r\n}\r\n', 'utf8');
const PLAIN = Buffer.from('namespace N;\n// ünïcode\n', 'utf8');
const text = (bytes: Buffer): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

describe('the workspace journal', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.remove());

  it('applies edits and reverts them byte for byte', async () => {
    ws.write('src/Calc.cs', BOM_CRLF);
    ws.write('src/Gone.cs', PLAIN);
    const store = new RunStore(ws.host);
    const at = '2026-01-01T00:00:00.000Z';
    await store.save({
      schemaVersion: STATE_SCHEMA_VERSION,
      runId: 'r1',
      createdAt: at,
      updatedAt: at,
      codingState: toCodingState(initialContext(runInput()), 'VALIDATE', at),
      machine: {},
    });
    const applied: Array<[string, string[]]> = [];
    store.journal.onApplied((runId, files) => void applied.push([runId, files]));

    const changed = text(BOM_CRLF).replace('a - b', 'a + b');
    await store.journal.applyEdits('r1', [
      makeFileEdit('src/Calc.cs', text(BOM_CRLF), changed),
      makeFileEdit('src/Gone.cs', text(PLAIN), null),
      makeFileEdit('src/Sub/New.cs', null, 'class New {}\n'),
    ]);
    assert.deepEqual(ws.read('src/Calc.cs'), Buffer.from(changed, 'utf8'));
    assert.equal(ws.read('src/Gone.cs'), null);
    assert.deepEqual(ws.read('src/Sub/New.cs'), Buffer.from('class New {}\n'));
    assert.deepEqual(applied, [['r1', ['src/Calc.cs', 'src/Gone.cs', 'src/Sub/New.cs']]]);
    assert.deepEqual(await store.journal.touchedFiles('r1'), ['src/Calc.cs', 'src/Gone.cs', 'src/Sub/New.cs']);
    // The file before the run, for "compare with the original": a second apply does not move it.
    await store.journal.applyEdits('r1', [makeFileEdit('src/Calc.cs', changed, `${changed}// again\n`)]);
    assert.ok(Buffer.from((await store.journal.originalOf('r1', 'src/Calc.cs')) ?? []).equals(BOM_CRLF));
    assert.equal(await store.journal.originalOf('r1', 'src/Sub/New.cs'), null);
    assert.equal(await store.journal.originalOf('r1', 'src/Untouched.cs'), undefined);

    const report = await store.journal.revert('r1');
    assert.deepEqual(report, { restored: ['src/Calc.cs', 'src/Gone.cs'], deleted: ['src/Sub/New.cs'] });
    assert.ok(ws.read('src/Calc.cs')?.equals(BOM_CRLF), 'the BOM, the CRLFs and the é are back exactly');
    assert.ok(ws.read('src/Gone.cs')?.equals(PLAIN));
    assert.equal(ws.read('src/Sub/New.cs'), null);
  });

  it('refuses to revert a run that does not exist, touching nothing', async () => {
    ws.write('src/Calc.cs', BOM_CRLF);
    await assert.rejects(new RunStore(ws.host).journal.revert('no-such-run'), { code: 'STATE_NOT_FOUND' });
    assert.ok(ws.read('src/Calc.cs')?.equals(BOM_CRLF));
  });

  it('writes an apply in the order a power loss needs, every step durable but the last: marker, record, originals and files, done mark; then unmarks', async () => {
    ws.write('src/Calc.cs', BOM_CRLF);
    const writes: string[] = [];
    const rel = (absPath: string): string =>
      absPath
        .slice(ws.dir.length + 1)
        .split('\\')
        .join('/');
    const fs: HostFileSystem = Object.create(ws.host.fs) as HostFileSystem;
    fs.writeFile = (absPath, data, options) => {
      writes.push(`write ${rel(absPath)}${options?.durable ? ' (durable)' : ''}`);
      return ws.host.fs.writeFile(absPath, data, options);
    };
    fs.deleteFile = (absPath, options) => {
      writes.push(`delete ${rel(absPath)}${options?.durable ? ' (durable)' : ''}`);
      return ws.host.fs.deleteFile(absPath, options);
    };
    const host = Object.create(ws.host) as Host;
    Object.defineProperty(host, 'fs', { value: fs });
    const store = new RunStore(host);
    await store.journal.recoverUnfinished();
    // The first start in a workspace: the index is complete (nothing to walk); losing this file only
    // makes a later start walk runs/ again (the fault matrix's ".indexed absent" row), so it is not flushed.
    assert.deepEqual(writes, ['write .ironbees/runs/.open-applies/.indexed']);
    writes.length = 0;
    await store.journal.applyEdits('r1', [
      makeFileEdit('src/Calc.cs', text(BOM_CRLF), 'class C {}\n'),
      makeFileEdit('src/New.cs', null, 'class N {}\n'),
    ]);
    assert.deepEqual(writes, [
      'write .ironbees/runs/.open-applies/r1 (durable)',
      'write .ironbees/runs/r1/edits/apply-intent.json (durable)',
      'write .ironbees/runs/r1/edits/0.orig (durable)',
      'write .ironbees/runs/r1/edits/index.json (durable)',
      'write src/Calc.cs (durable)',
      'write .ironbees/runs/r1/edits/index.json (durable)',
      'write src/New.cs (durable)',
      'write .ironbees/runs/r1/edits/apply-intent.json (durable)',
      'delete .ironbees/runs/.open-applies/r1',
      // After the set is done: what the run wrote, for a later rewind to tell from a person's edit (checkpoint-store.ts).
      'write .ironbees/runs/r1/checkpoints/head.json',
    ]);
  });
});
