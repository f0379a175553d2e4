// The orchestrator hands a run's live activity to its listeners: what the agents report, stamped
// with the run's id, and after every model call the run's usage so far (steps done plus the step
// in flight), so a face can show tokens moving during a step.

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import type { ActivityEvent } from '../../../src/core/activity';
import { addUsage } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { PlanInput, PlanOutput } from '../../../src/core/workflow/run-context';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, eventually } from './orchestrator-harness';
import { baseline, planOutput, usage, workflow } from './samples';

describe('the orchestrator hands live activity to its listeners', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it("stamps the run id on what the step reports and says the run's usage after every model call", async () => {
    const CALL_1 = usage(11, 2);
    const CALL_2 = usage(13, 4);
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
    const runs = new RunOrchestrator(ws.host, (_store, traceFor, activityFor) => ({
      ...steps.actors(),
      plan: fromPromise<PlanOutput, PlanInput>(async ({ input }) => {
        const trace = traceFor(input.stateId);
        const activity = activityFor(input.stateId);
        activity.emit({ kind: 'tool', agent: 'planner', turn: 1, tool: 'read_file', line: 'read src/A.cs lines 1–3 of 3', ok: true });
        trace.record({ kind: 'model_call', at: 'now', agent: 'planner', model: 'm', durationMs: 1, stopReason: 'tool_use', usage: CALL_1 });
        trace.record({ kind: 'model_call', at: 'now', agent: 'planner', model: 'm', durationMs: 1, stopReason: 'tool_use', usage: CALL_2 });
        return planOutput();
      }),
    }));
    const seen: ActivityEvent[] = [];
    const stop = runs.onActivity((event) => seen.push(event));
    const stream = new StateStream(runs.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), AbortSignal.timeout(10_000)));
    const waiting = await stream.until('WAIT_PLAN_APPROVAL');
    await eventually(() => seen.length === 3, 'three activity events');
    assert.deepEqual(seen, [
      {
        kind: 'tool',
        runId: waiting.stateId,
        agent: 'planner',
        turn: 1,
        tool: 'read_file',
        line: 'read src/A.cs lines 1–3 of 3',
        ok: true,
      },
      { kind: 'usage', runId: waiting.stateId, usage: CALL_1 },
      { kind: 'usage', runId: waiting.stateId, usage: addUsage(CALL_1, CALL_2) },
    ]);
    stop();
    await runs.cancel(waiting.stateId);
    assert.equal(seen.length, 3, 'nothing after unsubscribing');
  });

  it('a listener that throws does not stop the others or the run', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
    const runs = new RunOrchestrator(ws.host, (_store, traceFor, activityFor) => ({
      ...steps.actors(),
      plan: fromPromise<PlanOutput, PlanInput>(async ({ input }) => {
        activityFor(input.stateId).emit({ kind: 'text', agent: 'planner', turn: 1, text: 'Looking.' });
        return planOutput();
      }),
    }));
    const heard: string[] = [];
    runs.onActivity(() => {
      throw new Error('listener bug');
    });
    runs.onActivity((event) => heard.push(event.kind));
    const stream = new StateStream(runs.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), AbortSignal.timeout(10_000)));
    const waiting = await stream.until('WAIT_PLAN_APPROVAL');
    assert.deepEqual(heard, ['text']);
    await runs.cancel(waiting.stateId);
  });
});
