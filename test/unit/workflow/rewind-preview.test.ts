// What the panel shows before a rewind (rewind-preview.ts): only the files whose bytes would change,
// with the bytes each would get — the checkpoint's, else the original, null for a file the run
// created later — and nothing written.

import { strict as assert } from 'node:assert';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { sha256 } from '../../../src/core/workflow/edit-journal-wal';
import { previewRewind, rewindTargetBytes } from '../../../src/core/workflow/rewind-preview';
import { rewindRun } from '../../../src/core/workflow/rewind';
import type { RunStore } from '../../../src/core/workflow/store';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, failing, passing, planOutput, workflow } from './samples';

const V0 = 'class A {}\n';
const V1 = 'class A { int X; }\n';
const V2 = 'class A { int Y; }\n';
const NEW = 'class B {}\n';
const text = (bytes: Uint8Array | null): string | null => (bytes ? Buffer.from(bytes).toString('utf8') : null);

describe('rewind preview', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  async function twoIterations(): Promise<{ runId: string; store: RunStore }> {
    ws.write('src/A.cs', V0);
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', V0, V1)]) })
      .script('validate', { output: failing(1) })
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', V1, V2), makeFileEdit('src/B.cs', null, NEW)]) })
      .script('validate', { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const stream = new StateStream(
      orchestrator.execute(
        'Add X',
        workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
        AbortSignal.timeout(15_000),
      ),
    );
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    return { runId: stream.runId, store: orchestrator.store };
  }

  it('lists the files that would change with the bytes each gets, writes nothing, and matches what the rewind then writes', async () => {
    const { runId, store } = await twoIterations();
    const preview = await previewRewind(store, runId, 'iteration:1');
    assert.equal(preview.checkpoint.id, 'c2');
    assert.deepEqual(preview.changes, [
      { path: 'src/A.cs', currentSha: sha256(Buffer.from(V2)), targetSha: sha256(Buffer.from(V1)) },
      { path: 'src/B.cs', currentSha: sha256(Buffer.from(NEW)), targetSha: null },
    ]);
    assert.equal(text(await rewindTargetBytes(store, runId, 'c2', 'src/A.cs')), V1);
    assert.equal(await rewindTargetBytes(store, runId, 'c2', 'src/B.cs'), null);
    // The plan checkpoint held no file: A gets what it held before the run.
    assert.equal(text(await rewindTargetBytes(store, runId, 'c1', 'src/A.cs')), V0);
    assert.equal(text(ws.read('src/A.cs')), V2, 'a preview writes nothing');
    assert.equal(text(ws.read('src/B.cs')), NEW);

    await rewindRun(store, runId, 'iteration:1');
    assert.equal(text(ws.read('src/A.cs')), V1);
    assert.equal(ws.read('src/B.cs'), null);
    assert.deepEqual((await previewRewind(store, runId, 'iteration:1')).changes, [], 'nothing left to change');
  });
});
