// The orchestrator over fake steps, on a real temp-dir workspace: what it yields, what it writes
// after every transition, how it stops at gates, and how a run survives an interruption.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ConfigurationError, InvalidStateError, OrchestratorError, StateNotFoundError } from '../../../src/core/errors';
import type { WorkflowContext } from '../../../src/core/model';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import { IRONBEES_GITIGNORE, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import { traceQueueOpen } from '../../../src/core/workflow/event-log';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, eventually, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, failing, passing, planOutput, usage, workflow } from './samples';
import { MAIN_PATH } from '../../../src/core/nodes';

const REQUEST = 'Fix the failing Calculator test';
const UNATTENDED = { approval: { plan: 'never', diffs: 'never' } } as const;

describe('orchestrator', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  const controllers: AbortController[] = [];

  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => {
    // Whatever a failed test left running is stopped here, so nothing outlives it.
    for (const c of controllers.splice(0)) c.abort();
    ws.remove();
  });

  function flow(overrides: Partial<WorkflowContext> = {}): WorkflowContext {
    return workflow({ workspaceRoot: ws.dir, ...overrides });
  }

  function start(steps: FakeSteps, overrides: Partial<WorkflowContext> = {}, request = REQUEST) {
    const orchestrator = orchestratorOver(ws.host, steps);
    const controller = new AbortController();
    controllers.push(controller);
    const stream = new StateStream(orchestrator.execute(request, flow(overrides), controller.signal));
    return { orchestrator, stream, controller };
  }

  function happySteps(): FakeSteps {
    return new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput() })
      .script('validate', { output: passing() });
  }

  describe('execute', () => {
    it('yields every state in order and stops at each gate until it is approved', async () => {
      const steps = happySteps();
      const { orchestrator, stream } = start(steps);
      const atPlan = await stream.until('WAIT_PLAN_APPROVAL');
      assert.deepEqual(stream.nodes(), ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL']);
      assert.ok(await stream.quietFor(100), 'nothing happens until the plan is approved');
      assert.equal(steps.calls('code'), 0);
      await orchestrator.approve(atPlan.stateId, { type: 'APPROVE' });
      await stream.until('WAIT_DIFF_APPROVAL');
      assert.ok(await stream.quietFor(100), 'nothing happens until the diffs are approved');
      assert.equal(steps.calls('validate'), 0);
      await orchestrator.approve(atPlan.stateId, { type: 'APPROVE' });
      assert.deepEqual(await stream.rest(), ['VALIDATE', 'DECIDE', 'SUCCESS']);
      // Reviews are off in this run: the main path without its REVIEW.
      assert.deepEqual(stream.nodes(), [...MAIN_PATH.filter((node) => node !== 'REVIEW'), 'SUCCESS']);
      const final = stream.seen[stream.seen.length - 1];
      assert.equal(final.iterationCount, 1);
      assert.deepEqual(final.plan, planOutput().plan);
      assert.deepEqual(final.codeDiffs, codeOutput().edits);
      assert.deepEqual(final.testResult, passing().test);
    });

    it('keeps the baseline failures the validator saw pass (fixedTests), for the panel’s before → after', async () => {
      const steps = new FakeSteps()
        .script('captureBaseline', { output: baseline() })
        .script('plan', { output: planOutput() })
        .script('code', { output: codeOutput() })
        .script('validate', { output: { ...passing(), fixedTests: ['Calc.WasBroken'] } });
      const { stream } = start(steps, UNATTENDED);
      const done = await stream.until('SUCCESS');
      assert.deepEqual(done.metadata.fixedTests, ['Calc.WasBroken']);
      assert.deepEqual(ws.state(done.stateId).codingState.metadata.fixedTests, ['Calc.WasBroken']);
      assert.equal(done.metadata.endedDuring, undefined, 'only a run that failed or was cancelled says where it stopped');
    });

    it('writes state.json before each state is handed over, and one trace line per transition', async () => {
      const { stream } = start(happySteps(), UNATTENDED);
      for (;;) {
        const state = await stream.next();
        // The run's trace is held while it is driven (its next number kept), and let go once it ends.
        assert.equal(traceQueueOpen(path.join(ws.dir, '.ironbees', 'runs', state.stateId, 'events.jsonl')), true);
        const persisted = ws.state(state.stateId);
        assert.equal(persisted.schemaVersion, STATE_SCHEMA_VERSION);
        assert.equal(persisted.runId, state.stateId);
        assert.equal(persisted.codingState.currentNode, state.currentNode);
        assert.deepEqual(persisted.codingState, state);
        assert.equal((persisted.machine as { value: string }).value, state.currentNode);
        if (state.currentNode === 'SUCCESS') break;
      }
      assert.ok(await stream.ends());
      assert.equal(traceQueueOpen(path.join(ws.dir, '.ironbees', 'runs', stream.runId, 'events.jsonl')), false);
      assert.deepEqual(ws.transitions(stream.runId), [
        '∅→INIT',
        'INIT→PLAN',
        'PLAN→CODE',
        'CODE→VALIDATE',
        'VALIDATE→DECIDE',
        'DECIDE→SUCCESS',
      ]);
      for (const event of ws.events(stream.runId)) {
        if (event.kind === 'transition') assert.equal(event.iteration, event.to === 'INIT' || event.to === 'PLAN' ? 0 : 1);
      }
      assert.equal(ws.runFile(stream.runId, '../../.gitignore'), IRONBEES_GITIGNORE);
    });

    it('writes HANDOFF.md at ESCALATE and again at the end', async () => {
      const steps = new FakeSteps()
        .script('captureBaseline', { output: baseline() })
        .script('plan', { output: planOutput() })
        .script('code', { output: codeOutput() }, { output: codeOutput() })
        .script('validate', { output: failing(1) }, { output: passing() });
      const { orchestrator, stream } = start(steps, { ...UNATTENDED, maxIterations: 1 });
      const waiting = await stream.until('WAIT_HUMAN');
      const atEscalation = ws.runFile(waiting.stateId, 'HANDOFF.md') ?? '';
      assert.match(atEscalation, /\*\*State:\*\* ESCALATE/);
      assert.match(atEscalation, /Validation still fails after 1 of 1 iterations/);
      assert.match(atEscalation, /Calc\.Multiplies/);
      assert.equal(waiting.metadata.handoffPath, path.join(ws.dir, '.ironbees', 'runs', waiting.stateId, 'HANDOFF.md'));
      await orchestrator.approve(waiting.stateId, { type: 'CONTINUE', guidance: 'Mul multiplies', additionalIterations: 1 });
      await stream.until('SUCCESS');
      const atEnd = ws.runFile(waiting.stateId, 'HANDOFF.md') ?? '';
      assert.match(atEnd, /\*\*State:\*\* SUCCESS/);
      assert.match(atEnd, /Iteration 1: tests failed/);
      assert.match(atEnd, /Iteration 2: passed/);
      assert.equal(steps.inputs.code[1].errorContext?.guidance, 'Mul multiplies');
    });

    it('ends FAILED with the error in the state, state.json and HANDOFF.md when a step throws', async () => {
      const steps = new FakeSteps()
        .script('captureBaseline', { output: baseline() })
        .script('plan', { error: new Error('the model refused') });
      const { stream } = start(steps);
      const failed = await stream.until('FAILED');
      assert.equal(failed.metadata.error, 'the model refused');
      assert.ok(await stream.ends());
      assert.equal(ws.state(failed.stateId).codingState.metadata.error, 'the model refused');
      assert.equal(ws.state(failed.stateId).codingState.metadata.endedDuring, 'PLAN', 'the panel marks the step it failed in');
      assert.match(ws.runFile(failed.stateId, 'HANDOFF.md') ?? '', /## Error\n\nthe model refused/);
    });

    it('refuses an empty request before anything is written', async () => {
      const { stream } = start(happySteps(), {}, '   ');
      await assert.rejects(stream.next(), OrchestratorError);
      assert.equal(ws.read('.ironbees/runs'), null);
    });

    for (const [what, bad] of [
      ['zero iterations', { maxIterations: 0 }],
      ['a fractional iteration limit', { maxIterations: 2.5 }],
      ['an unknown plan policy', { approval: { plan: 'sometimes', diffs: 'always' } }],
      ['an unknown diff policy', { approval: { plan: 'always', diffs: 'often' } }],
    ] as [string, Partial<WorkflowContext>][]) {
      it(`refuses ${what} with a clear error, before anything runs`, async () => {
        const steps = happySteps();
        const { stream } = start(steps, bad);
        await assert.rejects(stream.next(), ConfigurationError);
        assert.equal(steps.calls('captureBaseline'), 0);
      });
    }
  });

  describe('approve', () => {
    it('refuses a decision for another gate, and the run keeps waiting', async () => {
      const steps = happySteps();
      const { orchestrator, stream } = start(steps);
      const state = await stream.until('WAIT_PLAN_APPROVAL');
      await assert.rejects(orchestrator.approve(state.stateId, { type: 'CONTINUE', guidance: 'x', additionalIterations: 1 }), (error) => {
        assert.ok(error instanceof InvalidStateError);
        assert.equal(error.currentNode, 'WAIT_PLAN_APPROVAL');
        assert.match(error.message, /WAIT_HUMAN/);
        return true;
      });
      await assert.rejects(orchestrator.approve(state.stateId, { type: 'STOP' }), InvalidStateError);
      assert.ok(await stream.quietFor(50));
      assert.equal((await orchestrator.getState(state.stateId)).currentNode, 'WAIT_PLAN_APPROVAL');
      await orchestrator.approve(state.stateId, { type: 'APPROVE' });
      await stream.until('WAIT_DIFF_APPROVAL');
    });

    it('refuses a decision while no gate is open', async () => {
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
      const { orchestrator, stream } = start(steps);
      const planning = await stream.until('PLAN');
      await assert.rejects(orchestrator.approve(planning.stateId, { type: 'APPROVE' }), InvalidStateError);
    });

    it('refuses a decision about files that were not proposed, or hunks that do not exist', async () => {
      const { orchestrator, stream } = start(happySteps(), { approval: { plan: 'never', diffs: 'always' } });
      const state = await stream.until('WAIT_DIFF_APPROVAL');
      await assert.rejects(
        orchestrator.approve(state.stateId, { type: 'APPROVE', files: [{ filePath: 'src/Calc.cz', accepted: false }] }),
        (error: Error) => error instanceof OrchestratorError && /src\/Calc\.cz/.test(error.message) && /src\/Calc\.cs/.test(error.message),
      );
      await assert.rejects(
        orchestrator.approve(state.stateId, { type: 'APPROVE', files: [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [2] }] }),
        (error: Error) => error instanceof OrchestratorError && /hunk/.test(error.message),
      );
      assert.ok(await stream.quietFor(50), 'a refused decision changes nothing');
      await orchestrator.approve(state.stateId, {
        type: 'APPROVE',
        files: [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1] }],
      });
      await stream.until('SUCCESS');
    });

    it('refuses a decision of an unknown kind', async () => {
      const { orchestrator, stream } = start(happySteps());
      const state = await stream.until('WAIT_PLAN_APPROVAL');
      const bogus = { type: 'CANCEL' } as unknown as Parameters<typeof orchestrator.approve>[1];
      await assert.rejects(orchestrator.approve(state.stateId, bogus), OrchestratorError);
    });

    it('refuses a decision for a run that does not exist', async () => {
      const orchestrator = orchestratorOver(ws.host, new FakeSteps());
      await assert.rejects(orchestrator.approve('20250101-000000-abcdef', { type: 'APPROVE' }), StateNotFoundError);
      await assert.rejects(orchestrator.approve('../../etc', { type: 'APPROVE' }), StateNotFoundError);
    });
  });

  describe('interrupt and resume', () => {
    it('an abort mid-step ends the iterable; a new orchestrator re-runs exactly that step and finishes', async () => {
      const first = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      const { stream, controller } = start(first, UNATTENDED);
      const coding = await stream.until('CODE');
      await eventually(() => first.calls('code') === 1, 'the coder started');
      controller.abort();
      assert.ok(await stream.ends(), 'the iterable ends without another state');
      await eventually(() => first.aborted.includes('code'), 'the coder was told to stop');
      assert.equal(ws.state(coding.stateId).codingState.currentNode, 'CODE');

      const second = new FakeSteps().script('code', { output: codeOutput() }).script('validate', { output: passing() });
      const resumed = orchestratorOver(ws.host, second);
      const again = new StateStream(resumed.resume(coding.stateId));
      assert.deepEqual(await again.rest(), ['CODE', 'VALIDATE', 'DECIDE', 'SUCCESS']);
      assert.equal(second.calls('captureBaseline') + second.calls('plan'), 0, 'finished steps are not repeated');
      assert.equal(second.calls('code'), 1);
      assert.deepEqual(second.inputs.code[0], first.inputs.code[0], 'the same step, with the same input');
      assert.equal(ws.state(coding.stateId).codingState.currentNode, 'SUCCESS');
      assert.deepEqual(ws.transitions(coding.stateId).slice(-4), ['∅→CODE', 'CODE→VALIDATE', 'VALIDATE→DECIDE', 'DECIDE→SUCCESS']);
    });

    it('a run left at a gate resumes at that gate and takes the decision', async () => {
      const { stream, controller } = start(happySteps(), { approval: { plan: 'always', diffs: 'never' } });
      const waiting = await stream.until('WAIT_PLAN_APPROVAL');
      controller.abort();
      assert.ok(await stream.ends());

      const steps = new FakeSteps().script('code', { output: codeOutput() }).script('validate', { output: passing() });
      const fresh = orchestratorOver(ws.host, steps);
      await assert.rejects(
        fresh.approve(waiting.stateId, { type: 'APPROVE' }),
        (error: Error) => error instanceof InvalidStateError && /resume it first/.test(error.message),
      );
      const again = new StateStream(fresh.resume(waiting.stateId));
      assert.equal((await again.next()).currentNode, 'WAIT_PLAN_APPROVAL');
      await fresh.approve(waiting.stateId, { type: 'APPROVE' });
      assert.deepEqual(await again.rest(), ['CODE', 'VALIDATE', 'DECIDE', 'SUCCESS']);
      assert.equal(steps.calls('plan'), 0);
    });

    it('a caller that stops listening stops the run, and it stays resumable', async () => {
      const { orchestrator, stream } = start(happySteps());
      const waiting = await stream.until('WAIT_PLAN_APPROVAL');
      await stream.close();
      await assert.rejects(orchestrator.approve(waiting.stateId, { type: 'APPROVE' }), /resume it first/);
      const again = new StateStream(orchestrator.resume(waiting.stateId));
      assert.equal((await again.next()).currentNode, 'WAIT_PLAN_APPROVAL');
      await orchestrator.approve(waiting.stateId, { type: 'APPROVE' });
      assert.equal((await again.next()).currentNode, 'CODE');
    });

    it('resuming a finished run yields its final state once and runs nothing', async () => {
      const { stream } = start(happySteps(), UNATTENDED);
      await stream.rest();
      const runId = stream.runId;
      const steps = new FakeSteps();
      const again = new StateStream(orchestratorOver(ws.host, steps).resume(runId));
      assert.deepEqual(await again.rest(), ['SUCCESS']);
      assert.equal(steps.calls('captureBaseline') + steps.calls('code'), 0);
    });

    it('refuses to resume a run that is already running here, or that does not exist', async () => {
      const { orchestrator, stream } = start(happySteps());
      const state = await stream.until('WAIT_PLAN_APPROVAL');
      await assert.rejects(new StateStream(orchestrator.resume(state.stateId)).next(), /already running/);
      await assert.rejects(new StateStream(orchestrator.resume('no-such-run')).next(), StateNotFoundError);
    });
  });

  describe('cancel', () => {
    it('cancels a live run: the step stops, the run ends CANCELLED, persisted, with its hand-off', async () => {
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
      const { orchestrator, stream } = start(steps);
      const planning = await stream.until('PLAN');
      await eventually(() => steps.calls('plan') === 1, 'the planner started');
      await orchestrator.cancel(planning.stateId);
      assert.equal(ws.state(planning.stateId).codingState.currentNode, 'CANCELLED', 'persisted by the time cancel returns');
      assert.equal(ws.state(planning.stateId).codingState.metadata.endedDuring, 'PLAN', 'the panel ticks only the steps reached');
      assert.deepEqual(await stream.rest(), ['CANCELLED']);
      assert.ok(steps.aborted.includes('plan'));
      assert.match(ws.runFile(planning.stateId, 'HANDOFF.md') ?? '', /stopped by a person/);
    });

    it('cancels a persisted run without running its step again', async () => {
      const first = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      const { stream, controller } = start(first, UNATTENDED);
      const coding = await stream.until('CODE');
      controller.abort();
      await stream.ends();

      const steps = new FakeSteps();
      const later = orchestratorOver(ws.host, steps);
      await later.cancel(coding.stateId);
      assert.equal(ws.state(coding.stateId).codingState.currentNode, 'CANCELLED');
      assert.equal(ws.transitions(coding.stateId).at(-1), 'CODE→CANCELLED');
      assert.equal(ws.state(coding.stateId).codingState.metadata.endedDuring, 'CODE');
      assert.match(ws.runFile(coding.stateId, 'HANDOFF.md') ?? '', /\*\*State:\*\* CANCELLED/);
      assert.deepEqual(await new StateStream(later.resume(coding.stateId)).rest(), ['CANCELLED']);
      assert.equal(steps.calls('code'), 0);
      await later.cancel(coding.stateId);
      assert.equal(ws.transitions(coding.stateId).at(-1), 'CODE→CANCELLED', 'cancelling twice changes nothing');
    });

    it('refuses to cancel a run that does not exist', async () => {
      await assert.rejects(orchestratorOver(ws.host, new FakeSteps()).cancel('nope'), StateNotFoundError);
    });
  });

  describe('trace', () => {
    it('gives each step a sink that appends to the run’s events.jsonl', async () => {
      const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      const orchestrator = new RunOrchestrator(ws.host, (_store, traceFor) => {
        steps.onStart('plan', async (input) => {
          traceFor(input.stateId).record({
            kind: 'model_call',
            at: 'now',
            agent: 'planner',
            model: 'm',
            durationMs: 1,
            stopReason: 'tool_use',
            usage: usage(),
          });
        });
        return steps.actors();
      });
      const stream = new StateStream(orchestrator.execute(REQUEST, flow(), AbortSignal.timeout(10_000)));
      await stream.until('WAIT_PLAN_APPROVAL');
      await eventually(
        () => ws.events(stream.runId).some((e) => e.kind === 'model_call' && e.agent === 'planner'),
        'the model call is traced',
      );
      await orchestrator.cancel(stream.runId);
      await stream.rest();
    });
  });

  describe('getState', () => {
    it('answers from memory while the run is live, and from disk afterwards', async () => {
      const { orchestrator, stream } = start(happySteps());
      const waiting = await stream.until('WAIT_PLAN_APPROVAL');
      assert.equal((await orchestrator.getState(waiting.stateId)).currentNode, 'WAIT_PLAN_APPROVAL');
      const elsewhere = orchestratorOver(ws.host, new FakeSteps());
      assert.deepEqual(await elsewhere.getState(waiting.stateId), waiting);
      await orchestrator.cancel(waiting.stateId);
      await stream.rest();
      assert.equal((await elsewhere.getState(waiting.stateId)).currentNode, 'CANCELLED');
      await assert.rejects(elsewhere.getState('missing'), StateNotFoundError);
    });
  });
});

describe('orchestrator: revert through the store', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.remove());

  const BOM = '\uFEFF';
  const CRLF_BOM = Buffer.from(`${BOM}class Calc {\r\n  int Add(int a, int b) => a - b;\r\n}\r\n`, 'utf8');
  const PLAIN = Buffer.from('namespace App;\nclass Plain {}\n', 'utf8');
  const DOOMED = Buffer.from('class Doomed {}', 'utf8');
  const text = (bytes: Buffer): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

  it('restores modified and deleted files byte for byte and removes created ones, even after edits were applied twice', async () => {
    ws.write('src/Calc.cs', CRLF_BOM);
    ws.write('src/Plain.cs', PLAIN);
    ws.write('src/Doomed.cs', DOOMED);
    const first = [
      makeFileEdit('src/Calc.cs', text(CRLF_BOM), text(CRLF_BOM).replace('a - b', 'a + b')),
      makeFileEdit('src/Plain.cs', text(PLAIN), 'namespace App;\nclass Plain { int X; }\n'),
      makeFileEdit('src/Doomed.cs', text(DOOMED), null),
      makeFileEdit('src/New/Created.cs', null, 'class Created {}\n'),
    ];
    // The second iteration edits an already edited file again: revert must still restore the original.
    const second = [makeFileEdit('src/Calc.cs', text(CRLF_BOM).replace('a - b', 'a + b'), text(CRLF_BOM).replace('a - b', 'b + a'))];
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput(first) }, { output: codeOutput(second) })
      .script('validate', { output: failing(1) }, { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const stream = new StateStream(
      orchestrator.execute(REQUEST, workflow({ workspaceRoot: ws.dir, ...UNATTENDED }), AbortSignal.timeout(10_000)),
    );
    assert.equal(await stream.rest().then((nodes) => nodes.at(-1)), 'SUCCESS');
    const runId = stream.runId;

    assert.equal(ws.read('src/Calc.cs')?.toString('utf8'), `${BOM}class Calc {\r\n  int Add(int a, int b) => b + a;\r\n}\r\n`);
    assert.equal(ws.read('src/Doomed.cs'), null);
    assert.equal(ws.read('src/New/Created.cs')?.toString('utf8'), 'class Created {}\n');
    assert.deepEqual((await orchestrator.store.journal.touchedFiles(runId)).sort(), [
      'src/Calc.cs',
      'src/Doomed.cs',
      'src/New/Created.cs',
      'src/Plain.cs',
    ]);
    assert.ok(ws.events(runId).some((e) => e.kind === 'edit_applied' && e.filePath === 'src/Doomed.cs' && e.type === 'DELETE'));

    // A resumed VALIDATE applies the same edits again: harmless, and the journal keeps the originals.
    await orchestrator.store.journal.applyEdits(runId, second);
    await orchestrator.store.journal.applyEdits(runId, second);

    const report = await orchestrator.store.journal.revert(runId);
    assert.deepEqual(report.restored.sort(), ['src/Calc.cs', 'src/Doomed.cs', 'src/Plain.cs']);
    assert.deepEqual(report.deleted, ['src/New/Created.cs']);
    assert.ok(ws.read('src/Calc.cs')?.equals(CRLF_BOM), 'CRLF and the BOM come back exactly');
    assert.ok(ws.read('src/Plain.cs')?.equals(PLAIN));
    assert.ok(ws.read('src/Doomed.cs')?.equals(DOOMED));
    assert.equal(ws.read('src/New/Created.cs'), null);

    const again = await orchestrator.store.journal.revert(runId);
    assert.deepEqual(again.deleted, [], 'reverting twice deletes nothing more');
    assert.ok(ws.read('src/Calc.cs')?.equals(CRLF_BOM));
  });
});
