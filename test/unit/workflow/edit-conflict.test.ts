// A person may edit a file while the run waits for diff approval. Applying the approved edits must
// then refuse, naming the file, and write nothing; the coder then proposes again against the
// person's version (or, with no iteration left, a person is asked).

import { strict as assert } from 'node:assert';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import { EditConflictError, RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace } from './orchestrator-harness';
import { CALC_AFTER, CALC_BEFORE, baseline, codeOutput, planOutput, runInput, workflow } from './samples';

describe('applying approved edits over a file changed on disk', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  let store: RunStore;
  beforeEach(() => {
    ws = new TempWorkspace();
    store = new RunStore(ws.host);
  });
  afterEach(() => ws.remove());

  it('refuses the whole set, naming the file, and writes nothing', async () => {
    ws.write('src/Calc.cs', CALC_BEFORE);
    ws.write('src/Other.cs', 'a\n');
    const edits = [makeFileEdit('src/Other.cs', 'a\n', 'b\n'), makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER)];
    ws.write('src/Calc.cs', `${CALC_BEFORE}// the person's own line\n`);
    await assert.rejects(
      store.journal.applyEdits('r1', edits),
      (error: Error) =>
        error instanceof EditConflictError &&
        error.code === 'EDIT_CONFLICT' &&
        /^src\/Calc\.cs changed on disk/.test(error.message) &&
        !/Other/.test(error.message),
    );
    assert.equal(ws.read('src/Calc.cs')?.toString(), `${CALC_BEFORE}// the person's own line\n`, "the person's edit is kept");
    assert.equal(ws.read('src/Other.cs')?.toString(), 'a\n', 'the other file was not written either');
    assert.deepEqual(await store.journal.touchedFiles('r1'), []);
  });

  it('sees a created file that appeared, and a changed line ending, as changes', async () => {
    ws.write('src/New.cs', 'class New {}\n');
    await assert.rejects(
      store.journal.applyEdits('r1', [makeFileEdit('src/New.cs', null, 'class Mine {}\n')]),
      /src\/New\.cs changed on disk/,
    );
    ws.write('src/Crlf.cs', 'a\r\n');
    await assert.rejects(store.journal.applyEdits('r1', [makeFileEdit('src/Crlf.cs', 'a\n', 'b\n')]), EditConflictError);
  });

  it('applies again what is already applied (a resumed VALIDATE), including deletions and half-applied sets', async () => {
    ws.write('src/A.cs', 'a\n');
    ws.write('src/B.cs', 'b\n');
    ws.write('src/Gone.cs', 'gone\n');
    const edits = [
      makeFileEdit('src/A.cs', 'a\n', 'A\n'),
      makeFileEdit('src/B.cs', 'b\n', 'B\n'),
      makeFileEdit('src/Gone.cs', 'gone\n', null),
      makeFileEdit('src/C.cs', null, 'c\n'),
    ];
    await store.journal.applyEdits('r1', edits.slice(0, 1));
    await store.journal.applyEdits('r1', edits);
    await store.journal.applyEdits('r1', edits);
    assert.equal(ws.read('src/A.cs')?.toString(), 'A\n');
    assert.equal(ws.read('src/B.cs')?.toString(), 'B\n');
    assert.equal(ws.read('src/Gone.cs'), null);
    assert.equal(ws.read('src/C.cs')?.toString(), 'c\n');
    const at = '2025-01-01T00:00:00.000Z';
    await store.save({
      schemaVersion: STATE_SCHEMA_VERSION,
      runId: 'r1',
      createdAt: at,
      updatedAt: at,
      codingState: toCodingState(initialContext(runInput()), 'VALIDATE', at),
      machine: {},
    });
    await store.journal.revert('r1');
    assert.equal(ws.read('src/A.cs')?.toString(), 'a\n');
    assert.equal(ws.read('src/Gone.cs')?.toString(), 'gone\n');
    assert.equal(ws.read('src/C.cs'), null);
  });

  it('refuses a stale set: edits of an earlier iteration over a file a later one changed', async () => {
    ws.write('src/A.cs', 'a\n');
    const first = makeFileEdit('src/A.cs', 'a\n', 'b\n');
    await store.journal.applyEdits('r1', [first]);
    await store.journal.applyEdits('r1', [makeFileEdit('src/A.cs', 'b\n', 'c\n')]);
    await assert.rejects(store.journal.applyEdits('r1', [first]), EditConflictError);
    assert.equal(ws.read('src/A.cs')?.toString(), 'c\n');
  });

  it('re-proposes against the person’s version instead of failing: the coder is told, their edit is never overwritten', async () => {
    ws.write('src/Calc.cs', CALC_BEFORE);
    const personal = CALC_BEFORE.replace('a - b', 'a + b /* fixed by hand */');
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script(
        'code',
        { output: codeOutput([makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER)], 'First proposal') },
        { output: codeOutput([makeFileEdit('src/Calc.cs', personal, `${personal}// on top\n`)], 'Again, on your version') },
      );
    // The real VALIDATE step: it applies the edits before it builds, so it fails before any dotnet runs.
    const deps = { host: ws.host } as unknown as OrchestratorDeps;
    const orchestrator = new RunOrchestrator(ws.host, (runStore, traceFor) => ({
      ...steps.actors(),
      validate: createStepActors(deps, runStore, traceFor).validate,
      writeHandoff: createStepActors(deps, runStore, traceFor).writeHandoff,
    }));
    const stream = new StateStream(
      orchestrator.execute(
        'Fix Add',
        workflow({ workspaceRoot: ws.dir, maxIterations: 2, approval: { plan: 'never', diffs: 'always' } }),
        AbortSignal.timeout(10_000),
      ),
    );
    const waiting = await stream.until('WAIT_DIFF_APPROVAL');
    ws.write('src/Calc.cs', personal);
    await orchestrator.approve(waiting.stateId, { type: 'APPROVE' });
    const again = await stream.until('WAIT_DIFF_APPROVAL');
    assert.deepEqual(stream.nodes().slice(-4), ['WAIT_DIFF_APPROVAL', 'VALIDATE', 'CODE', 'WAIT_DIFF_APPROVAL'], 'no FAILED');
    assert.equal(ws.read('src/Calc.cs')?.toString(), personal, "the person's edit is kept");
    assert.deepEqual(await orchestrator.store.journal.touchedFiles(waiting.stateId), []);
    const told = steps.inputs.code[1]?.errorContext?.text ?? '';
    assert.match(told, /^Your approved changes were NOT applied: the person edited src\/Calc\.cs while your proposal was under review/);
    assert.equal(steps.inputs.code[1]?.iteration, 2, 'the round uses an iteration');
    assert.equal(again.codeDiffs[0]?.originalContent, personal, 'the new proposal starts from their version');
    assert.equal(again.metadata.editConflict, undefined, 'cleared once the coder proposed again');
    const attempts = again.metadata.attempts as { outcome: string; feedback?: string }[];
    assert.deepEqual([attempts[0]?.outcome, attempts[0]?.feedback], ['not applied', 'src/Calc.cs changed on disk under review']);
  });

  it('with no iteration left, hands over to a person naming the file, still without writing', async () => {
    ws.write('src/Calc.cs', CALC_BEFORE);
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput([makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER)]) });
    const deps = { host: ws.host } as unknown as OrchestratorDeps;
    const orchestrator = new RunOrchestrator(ws.host, (runStore, traceFor) => ({
      ...steps.actors(),
      validate: createStepActors(deps, runStore, traceFor).validate,
      writeHandoff: createStepActors(deps, runStore, traceFor).writeHandoff,
    }));
    const stream = new StateStream(
      orchestrator.execute(
        'Fix Add',
        workflow({ workspaceRoot: ws.dir, maxIterations: 1, approval: { plan: 'never', diffs: 'always' } }),
        AbortSignal.timeout(10_000),
      ),
    );
    const waiting = await stream.until('WAIT_DIFF_APPROVAL');
    ws.write('src/Calc.cs', `${CALC_BEFORE}// mine\n`);
    await orchestrator.approve(waiting.stateId, { type: 'APPROVE' });
    const human = await stream.until('WAIT_HUMAN');
    assert.deepEqual(human.metadata.editConflict, ['src/Calc.cs']);
    assert.match(
      ws.runFile(waiting.stateId, 'HANDOFF.md') ?? '',
      /src\/Calc\.cs changed on disk while the proposal was under review, so it was not applied \(the person's version is kept\)/,
    );
    assert.equal(ws.read('src/Calc.cs')?.toString(), `${CALC_BEFORE}// mine\n`);
  });
});
