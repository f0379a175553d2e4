// Checkpoints and rewind over fake steps (checkpoint-store.ts, checkpoints.ts, rewind.ts): which
// steps take a checkpoint and what it holds, what each reference names, a rewind's bytes and state,
// the person's edit that is never overwritten without force, and a rewind cut short that the next
// command finishes.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { isBuildOutput } from '../../../src/core/workflow/checkpoint-store';
import { finishUnfinishedRewind, rewindRun, RewindConflictError } from '../../../src/core/workflow/rewind';
import { RunStore } from '../../../src/core/workflow/store';
import type { Host } from '../../../src/core/host';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, failing, passing, planOutput, workflow } from './samples';

const V0 = 'class A {}\n';
const V1 = 'class A { int X; }\n';
const V2 = 'class A { int Y; }\n';
const NEW = 'class B {}\n';

describe('checkpoints and rewind', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  /** Iteration 1 writes A = V1 (tests fail); iteration 2 writes A = V2 and creates B (tests pass). */
  async function twoIterations(): Promise<{ runId: string; store: RunStore; steps: FakeSteps }> {
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
    return { runId: stream.runId, store: orchestrator.store, steps };
  }

  it('takes one at the plan and at each validated iteration, with only the touched files, each content stored once', async () => {
    const { runId, store } = await twoIterations();
    const list = await store.checkpoints.list(runId);
    assert.deepEqual(
      list.map(({ id, kind, label, node, iteration, files, tests, green }) => ({ id, kind, label, node, iteration, files, tests, green })),
      [
        {
          id: 'c1',
          kind: 'plan',
          label: 'plan approved',
          node: 'CODE',
          iteration: 1,
          files: [],
          tests: { total: 2, passed: 1, failed: 1 },
          green: false,
        },
        {
          id: 'c2',
          kind: 'iteration',
          label: 'iteration 1: tests failed',
          node: 'DECIDE',
          iteration: 1,
          files: ['src/A.cs'],
          tests: { total: 2, passed: 1, failed: 1 },
          green: false,
        },
        {
          id: 'c3',
          kind: 'iteration',
          label: 'iteration 2: passed',
          node: 'DECIDE',
          iteration: 2,
          files: ['src/A.cs', 'src/B.cs'],
          tests: { total: 2, passed: 2, failed: 0 },
          green: true,
        },
      ],
    );
    // V1, V2 and NEW: three blobs, whatever the number of checkpoints.
    const blobs = fs.readdirSync(path.join(ws.dir, '.ironbees', 'runs', runId, 'checkpoints', 'blobs'));
    assert.equal(blobs.length, 3);
  });

  it('never holds build output', () => {
    assert.deepEqual(['bin/Debug/A.dll', 'src/obj/x.json', 'src/A.cs', 'src/Objects/O.cs', 'OBJ/y'].map(isBuildOutput), [
      true,
      true,
      false,
      false,
      true,
    ]);
  });

  it('rewinds to iteration 1: its bytes, a file made later deleted, WAIT_HUMAN, and what was set aside kept', async () => {
    const { runId, store } = await twoIterations();
    const report = await rewindRun(store, runId, 'iteration:1', { now: () => new Date('2026-11-27T10:00:00.000Z') });
    assert.deepEqual([report.checkpoint.id, report.restored, report.deleted], ['c2', ['src/A.cs'], ['src/B.cs']]);
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V1);
    assert.equal(ws.read('src/B.cs'), null);
    const state = ws.state(runId).codingState;
    assert.equal(state.currentNode, 'WAIT_HUMAN');
    assert.equal(state.iterationCount, 1);
    assert.deepEqual(
      (
        state.metadata.rewinds as Array<{
          checkpoint: string;
          fromNode: string;
          fromIteration: number;
          setAside: Array<{ iteration: number }>;
        }>
      ).map((r) => [r.checkpoint, r.fromNode, r.fromIteration, r.setAside.map((i) => i.iteration)]),
      [['c2', 'SUCCESS', 2, [2]]],
    );
    assert.match(ws.runFile(runId, 'HANDOFF.md') ?? '', /## Rewound\n\n- 2026-11-27T10:00:00.000Z: back to checkpoint c2/);
    assert.equal(fs.existsSync(path.join(ws.dir, '.ironbees', 'runs', runId, 'checkpoints', 'rewind-intent.json')), false);
  });

  it('resumes from the rewound checkpoint with the guidance: iteration 2 again, the coder told the guidance', async () => {
    const { runId, store } = await twoIterations();
    await rewindRun(store, runId, 'iteration:1');
    const steps = new FakeSteps()
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', V1, V2)]) })
      .script('validate', { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const stream = new StateStream(orchestrator.resume(runId, AbortSignal.timeout(15_000)));
    assert.equal((await stream.next()).currentNode, 'WAIT_HUMAN');
    await orchestrator.approve(runId, { type: 'CONTINUE', guidance: 'Use Y', additionalIterations: 1 });
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    assert.equal(steps.inputs.code[0].iteration, 2);
    assert.equal(steps.inputs.code[0].errorContext?.guidance, 'Use Y');
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V2);
    const labels = (await orchestrator.store.checkpoints.list(runId)).map((c) => c.label);
    assert.deepEqual(labels.slice(3), ['guidance given', 'iteration 2: passed']);
  });

  it('names plan, last-green and ids; an unknown one lists what there is', async () => {
    const { runId, store } = await twoIterations();
    assert.equal((await rewindRun(store, runId, 'last-green')).checkpoint.id, 'c3');
    assert.equal(ws.read('src/B.cs')?.toString('utf8'), NEW);
    assert.equal((await rewindRun(store, runId, 'plan')).checkpoint.id, 'c1');
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V0);
    assert.equal(ws.state(runId).codingState.iterationCount, 0, 'guidance after the plan starts iteration 1');
    assert.equal((await rewindRun(store, runId, 'c2')).checkpoint.id, 'c2');
    await assert.rejects(rewindRun(store, runId, 'iteration:9'), /has no checkpoint "iteration:9".*c1 \(plan approved\), c2/);
  });

  it("refuses to overwrite a person's edit, naming the file and writing nothing; force restores", async () => {
    const { runId, store } = await twoIterations();
    ws.write('src/A.cs', 'class A { int Mine; }\n');
    await assert.rejects(rewindRun(store, runId, 'iteration:1'), (error: unknown) => {
      assert.ok(error instanceof RewindConflictError);
      assert.deepEqual(error.files, ['src/A.cs']);
      return true;
    });
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), 'class A { int Mine; }\n');
    assert.equal(ws.read('src/B.cs')?.toString('utf8'), NEW, 'nothing written');
    assert.equal(ws.state(runId).codingState.currentNode, 'SUCCESS');
    await rewindRun(store, runId, 'iteration:1', { force: true });
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V1);
  });

  it('a rewind killed after its first file is finished by the next command on the run', async () => {
    const { runId } = await twoIterations();
    // The process "dies" at the second workspace write of the rewind (B.cs's delete comes after A.cs).
    const dying = dyingHost(ws.host, (file) => file.endsWith(path.join('src', 'B.cs')));
    await assert.rejects(rewindRun(new RunStore(dying), runId, 'iteration:1'), /killed/);
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V1, 'the first file was written');
    assert.equal(ws.read('src/B.cs')?.toString('utf8'), NEW, 'the second was not');
    assert.equal(ws.state(runId).codingState.currentNode, 'SUCCESS', 'the state was not yet rewound');
    const report = await finishUnfinishedRewind(new RunStore(ws.host), runId);
    assert.deepEqual([report?.restored, report?.deleted], [['src/A.cs'], ['src/B.cs']]);
    assert.equal(ws.read('src/B.cs'), null);
    assert.equal(ws.state(runId).codingState.currentNode, 'WAIT_HUMAN');
    assert.equal(await finishUnfinishedRewind(new RunStore(ws.host), runId), null, 'nothing left open');
  });

  it('a rewind cut short keeps a file someone changed since', async () => {
    const { runId } = await twoIterations();
    const dying = dyingHost(ws.host, (file) => file.endsWith(path.join('src', 'A.cs')));
    await assert.rejects(rewindRun(new RunStore(dying), runId, 'iteration:1'), /killed/);
    ws.write('src/A.cs', 'class A { int Mine; }\n');
    const report = await finishUnfinishedRewind(new RunStore(ws.host), runId);
    assert.deepEqual([report?.restored, report?.deleted], [[], ['src/B.cs']]);
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), 'class A { int Mine; }\n');
  });
});

/** The host, except that the first write or delete of a workspace file matching `dies` throws (a kill there). */
function dyingHost(host: Host, dies: (file: string) => boolean): Host {
  let died = false;
  const fail = (file: string): void => {
    if (!died && dies(file)) {
      died = true;
      throw new Error('killed');
    }
  };
  const fsPort = host.fs;
  return {
    ...host,
    fs: {
      ...fsPort,
      readFile: fsPort.readFile.bind(fsPort),
      exists: fsPort.exists.bind(fsPort),
      listFiles: fsPort.listFiles.bind(fsPort),
      writeFile: async (file, data, options) => (fail(file), fsPort.writeFile(file, data, options)),
      deleteFile: async (file, options) => (fail(file), fsPort.deleteFile(file, options)),
    },
  };
}
