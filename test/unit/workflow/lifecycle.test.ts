// Run lifecycle hooks (workflow/lifecycle.ts): the milestones of a scripted run, in order, with
// exactly what each carries; and a subscriber that fails is logged without failing the run.

import { strict as assert } from 'node:assert';
import type { RunLifecycleEvent } from '../../../src/core/workflow/lifecycle';
import { RunLifecycle } from '../../../src/core/workflow/lifecycle';
import { createOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import type { Host } from '../../../src/core/host';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { CALC_AFTER, CALC_BEFORE, baseline, codeOutput, failing, passing, planOutput, workflow } from './samples';

const UNATTENDED = { approval: { plan: 'never', diffs: 'never' } } as const;
const KINDS = ['run_started', 'plan_approved', 'edits_applied', 'validation_done', 'run_ended'] as const;

describe('run lifecycle hooks', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/Calc.cs', CALC_BEFORE);
  });
  afterEach(() => ws.remove());

  function scripted(approval: typeof UNATTENDED | { approval: { plan: 'always'; diffs: 'never' } }) {
    const first = [makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER)];
    const second = [makeFileEdit('src/Calc.cs', CALC_AFTER, `${CALC_AFTER}// fixed\n`), makeFileEdit('src/New.cs', null, 'class New {}\n')];
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput(first) }, { output: codeOutput(second) })
      .script('validate', { output: failing(1) }, { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    // As the real VALIDATE step does (step-actors.ts): the journal writes the approved edits.
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const seen: RunLifecycleEvent[] = [];
    for (const kind of KINDS) orchestrator.lifecycle.on(kind, (event) => void seen.push(event));
    const stream = new StateStream(
      orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir, ...approval }), AbortSignal.timeout(10_000)),
    );
    return { orchestrator, stream, seen };
  }

  it('a scripted run emits run started, plan approved, edits applied and validation done per iteration, run ended — in that order', async () => {
    const { stream, seen } = scripted(UNATTENDED);
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    const runId = stream.runId;
    assert.deepEqual(seen, [
      { kind: 'run_started', runId, request: 'Fix Add' },
      { kind: 'plan_approved', runId, plan: planOutput().plan },
      { kind: 'edits_applied', runId, files: ['src/Calc.cs'] },
      { kind: 'validation_done', runId, iteration: 1, passed: false },
      { kind: 'edits_applied', runId, files: ['src/Calc.cs', 'src/New.cs'] },
      { kind: 'validation_done', runId, iteration: 2, passed: true },
      { kind: 'run_ended', runId, node: 'SUCCESS' },
    ]);
  });

  it('plan approved comes when the person approves, not before', async () => {
    const { orchestrator, stream, seen } = scripted({ approval: { plan: 'always', diffs: 'never' } });
    const atGate = await stream.until('WAIT_PLAN_APPROVAL');
    assert.deepEqual(
      seen.map((event) => event.kind),
      ['run_started'],
    );
    await orchestrator.approve(atGate.stateId, { type: 'APPROVE' });
    await stream.until('CODE');
    assert.deepEqual(
      seen.map((event) => event.kind),
      ['run_started', 'plan_approved'],
    );
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    assert.equal(seen.at(-1)?.kind, 'run_ended');
  });

  it('a subscriber that throws is logged and the others still run; unsubscribing stops the calls', async () => {
    const warnings: string[] = [];
    const lifecycle = new RunLifecycle((message) => warnings.push(message));
    const calls: string[] = [];
    lifecycle.on('run_ended', () => {
      throw new Error('disk full');
    });
    const off = lifecycle.on('run_ended', (event) => void calls.push(event.node));
    await lifecycle.emit({ kind: 'run_ended', runId: 'r1', node: 'FAILED' });
    off();
    await lifecycle.emit({ kind: 'run_ended', runId: 'r1', node: 'CANCELLED' });
    assert.deepEqual(calls, ['FAILED']);
    assert.deepEqual(warnings, ['A run_ended subscriber failed: disk full', 'A run_ended subscriber failed: disk full']);
  });

  it('the C# symbols subscribe to edits applied: exactly the files the journal just wrote are re-read', async () => {
    const invalidated: string[][] = [];
    const symbols = Object.create(ws.host.symbols) as Host['symbols'];
    symbols.invalidate = (files) => void invalidated.push([...files]);
    const host = Object.create(ws.host) as Host;
    Object.defineProperty(host, 'symbols', { value: symbols });
    const orchestrator = createOrchestrator({ host } as unknown as OrchestratorDeps);
    await orchestrator.lifecycle.emit({ kind: 'edits_applied', runId: 'r1', files: ['src/Calc.cs', 'src/New.cs'] });
    assert.deepEqual(invalidated, [['src/Calc.cs', 'src/New.cs']]);
  });
});
