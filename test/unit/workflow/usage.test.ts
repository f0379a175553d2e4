// What a run spent is counted however a step ends: done, failed, cancelled, escalated by a request
// for help, interrupted or killed (state.json keeps the cost of the model calls made so far).

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import { AgentExecutionError, AgentModeError } from '../../../src/core/errors';
import { addUsage } from '../../../src/core/model';
import type { Usage } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { PlanInput, PlanOutput } from '../../../src/core/workflow/run-context';
import { createStepActors, withStepUsage } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import { RunStore } from '../../../src/core/workflow/store';
import type { TraceEvent, TraceSink } from '../../../src/core/trace';
import { FakeSteps } from './fake-steps';
import { StateStream, tempWorkspaceEachTest, eventually } from './orchestrator-harness';
import { baseline, planOutput, usage, workflow } from './samples';

function modelCall(spent: Usage): TraceEvent {
  return {
    kind: 'model_call',
    at: new Date().toISOString(),
    agent: 'planner',
    model: 'm',
    durationMs: 1,
    stopReason: 'tool_use',
    usage: spent,
  };
}

const CALL_1 = usage(11, 2);
const CALL_2 = usage(13, 4);
const BOTH_CALLS = addUsage(CALL_1, CALL_2);

/** A planner that makes two model calls and then keeps working until it is stopped. */
function spendingPlanner(traceFor: (runId: string) => TraceSink) {
  return fromPromise<PlanOutput, PlanInput>(async ({ input, signal }) => {
    traceFor(input.stateId).record(modelCall(CALL_1));
    traceFor(input.stateId).record(modelCall(CALL_2));
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    throw new AgentModeError('planner: cancelled', 'CANCELLED');
  });
}

describe('usage of a run, however its steps end', function () {
  this.timeout(15_000);
  const suite = tempWorkspaceEachTest();
  const { controllers } = suite;

  function orchestrator(steps: FakeSteps, spendingPlan = false): RunOrchestrator {
    const deps = { host: suite.ws.host } as unknown as OrchestratorDeps;
    return new RunOrchestrator(suite.ws.host, (store, traceFor) => ({
      ...steps.actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      ...(spendingPlan ? { plan: spendingPlanner(traceFor) } : {}),
    }));
  }

  function start(runs: RunOrchestrator, approval: 'always' | 'never' = 'always'): { stream: StateStream; controller: AbortController } {
    const controller = new AbortController();
    controllers.push(controller);
    const flow = workflow({ workspaceRoot: suite.ws.dir, approval: { plan: approval, diffs: approval } });
    return { stream: new StateStream(runs.execute('Fix Add', flow, controller.signal)), controller };
  }

  it('counts the usage a failed step reports with its error, after what earlier steps spent', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { error: new AgentExecutionError('coder', 'did not finish within its turn budget', { usage: usage(40, 9) }) });
    const { stream } = start(orchestrator(steps), 'never');
    const failed = await stream.until('FAILED');
    const expected = addUsage(planOutput().usage, usage(40, 9));
    assert.deepEqual(failed.usage, expected);
    assert.deepEqual(suite.ws.state(failed.stateId).codingState.usage, expected);
    const [listed] = await new RunStore(suite.ws.host).list();
    assert.deepEqual(listed?.usage, expected, '`ironbees runs` shows it');
    assert.match(suite.ws.runFile(failed.stateId, 'HANDOFF.md') ?? '', /140 input tokens, 29 output tokens/);
  });

  it('counts what the step in flight spent when the run is cancelled', async () => {
    const runs = orchestrator(new FakeSteps().script('captureBaseline', { output: baseline() }), true);
    const { stream } = start(runs);
    const planning = await stream.until('PLAN');
    await eventually(() => suite.ws.state(planning.stateId).codingState.usage.inputTokens === BOTH_CALLS.inputTokens, 'usage checkpointed');
    await runs.cancel(planning.stateId);
    const cancelled = await stream.until('CANCELLED');
    assert.deepEqual(cancelled.usage, BOTH_CALLS);
    assert.deepEqual(suite.ws.state(planning.stateId).codingState.usage, BOTH_CALLS);
    assert.match(suite.ws.runFile(planning.stateId, 'HANDOFF.md') ?? '', /24 input tokens, 6 output tokens/);
  });

  it('counts what the step in flight spent when help is requested', async () => {
    const runs = orchestrator(new FakeSteps().script('captureBaseline', { output: baseline() }), true);
    const { stream } = start(runs);
    const planning = await stream.until('PLAN');
    await eventually(() => suite.ws.state(planning.stateId).codingState.usage.inputTokens === BOTH_CALLS.inputTokens, 'usage checkpointed');
    assert.equal(await runs.requestHelp(planning.stateId, 'Which Add?'), true);
    const waiting = await stream.until('WAIT_HUMAN');
    assert.deepEqual(waiting.usage, BOTH_CALLS);
  });

  it('keeps the cost of an interrupted (or killed) step in state.json, and the resumed step adds its own', async () => {
    const first = orchestrator(new FakeSteps().script('captureBaseline', { output: baseline() }), true);
    const { stream, controller } = start(first);
    const planning = await stream.until('PLAN');
    const runId = planning.stateId;
    await eventually(() => suite.ws.state(runId).codingState.usage.inputTokens === BOTH_CALLS.inputTokens, 'usage checkpointed');
    // What a kill leaves behind: the snapshot a resume restores counts the calls too.
    const persisted = suite.ws.state(runId);
    assert.equal(persisted.codingState.currentNode, 'PLAN');
    assert.deepEqual((persisted.machine as { context: { usage: Usage } }).context.usage, BOTH_CALLS);
    controller.abort();
    assert.ok(await stream.ends());
    assert.deepEqual(suite.ws.state(runId).codingState.usage, BOTH_CALLS);

    const second = orchestrator(new FakeSteps().script('plan', { output: planOutput() }));
    const resumed = new StateStream(second.resume(runId, AbortSignal.timeout(10_000)));
    const waiting = await resumed.until('WAIT_PLAN_APPROVAL');
    assert.deepEqual(waiting.usage, addUsage(BOTH_CALLS, planOutput().usage));
  });

  it('does not count a step twice: once it ends, its own usage replaces what was in flight', async () => {
    // Like the real steps: the calls are traced as they happen, and the output reports their sum.
    const deps = { host: suite.ws.host } as unknown as OrchestratorDeps;
    const runs = new RunOrchestrator(suite.ws.host, (store, traceFor) => ({
      ...new FakeSteps().script('captureBaseline', { output: baseline() }).actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      plan: fromPromise<PlanOutput, PlanInput>(async ({ input }) => {
        traceFor(input.stateId).record(modelCall(CALL_1));
        await new Promise((resolve) => setTimeout(resolve, 20));
        traceFor(input.stateId).record(modelCall(CALL_2));
        return { ...planOutput(), usage: BOTH_CALLS };
      }),
    }));
    const { stream } = start(runs);
    const waiting = await stream.until('WAIT_PLAN_APPROVAL');
    assert.deepEqual(waiting.usage, BOTH_CALLS);
    assert.deepEqual(suite.ws.state(waiting.stateId).codingState.usage, BOTH_CALLS);
    await runs.cancel(waiting.stateId);
    assert.deepEqual((await stream.until('CANCELLED')).usage, BOTH_CALLS);
  });
});

describe('withStepUsage', () => {
  const sink = (): { events: TraceEvent[]; trace: TraceSink } => {
    const events: TraceEvent[] = [];
    return { events, trace: { record: (event) => events.push(event) } };
  };

  it('passes the trace through and returns what the step returns', async () => {
    const { events, trace } = sink();
    const value = await withStepUsage(trace, async (counting) => {
      counting.record(modelCall(CALL_1));
      return 42;
    });
    assert.equal(value, 42);
    assert.equal(events.length, 1);
  });

  it('gives an error without usage the usage of the calls made before it, keeping its message and code', async () => {
    const { trace } = sink();
    const failure = withStepUsage(trace, async (counting) => {
      counting.record(modelCall(CALL_1));
      counting.record(modelCall(CALL_2));
      throw new AgentModeError('planner: Anthropic API error 500', 'MODEL_ERROR', { status: 500 });
    });
    await assert.rejects(failure, (error: Error) => {
      assert.ok(error instanceof AgentModeError);
      assert.equal(error.message, 'planner: Anthropic API error 500');
      assert.equal(error.code, 'MODEL_ERROR');
      assert.deepEqual(error.details, { status: 500, usage: BOTH_CALLS });
      return true;
    });
    await assert.rejects(
      withStepUsage(trace, async (counting) => {
        counting.record(modelCall(CALL_1));
        throw new Error('socket hang up');
      }),
      (error: Error) => error instanceof AgentModeError && error.message === 'socket hang up' && error.code === 'STEP_FAILED',
    );
  });

  it('leaves an error that carries its own usage, or follows no model call, as it is', async () => {
    const { trace } = sink();
    const own = new AgentExecutionError('coder', 'turn budget', { usage: CALL_2 });
    await assert.rejects(
      withStepUsage(trace, async (counting) => {
        counting.record(modelCall(CALL_1));
        throw own;
      }),
      (error) => error === own,
    );
    const plain = new Error('no agent named coder');
    await assert.rejects(
      withStepUsage(trace, async () => Promise.reject(plain)),
      (error) => error === plain,
    );
  });
});
