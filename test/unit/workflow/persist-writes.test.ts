// How a run's files are written between its steps: a transition's events.jsonl line does not wait for
// its state.json (both are on disk before the state is shown), and a model call rewrites state.json
// only when it adds to what is there.

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import type { Host, HostFileSystem } from '../../../src/core/host';
import { EMPTY_USAGE } from '../../../src/core/model';
import type { Usage } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { PlanInput, PlanOutput } from '../../../src/core/workflow/run-context';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
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

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The workspace's host, telling `onStateWrite` of every state.json write (with what is written) and waiting for its answer. */
function watchedHost(host: Host, onStateWrite: (text: string) => Promise<void> | void): Host {
  const inner = host.fs;
  const fs: HostFileSystem = Object.assign(Object.create(inner) as HostFileSystem, {
    writeFile: async (p: string, data: Uint8Array | string, options?: { durable?: boolean }) => {
      if (p.endsWith('state.json')) await onStateWrite(typeof data === 'string' ? data : new TextDecoder().decode(data));
      return inner.writeFile(p, data, options);
    },
  });
  return { ...host, fs };
}

describe('what a run writes between its steps', function () {
  this.timeout(15_000);
  const suite = tempWorkspaceEachTest();
  const { controllers } = suite;

  function start(
    host: Host,
    plan?: (traceFor: (runId: string) => TraceSink) => ReturnType<typeof fromPromise<PlanOutput, PlanInput>>,
  ): StateStream {
    const deps = { host } as unknown as OrchestratorDeps;
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    const runs = new RunOrchestrator(host, (store, traceFor) => ({
      ...steps.actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      ...(plan ? { plan: plan(traceFor) } : {}),
    }));
    const controller = new AbortController();
    controllers.push(controller);
    return new StateStream(
      runs.execute('Fix Add', workflow({ workspaceRoot: suite.ws.dir, approval: { plan: 'always', diffs: 'always' } }), controller.signal),
    );
  }

  it("writes a transition's events.jsonl line without waiting for its state.json, and shows the state only once both are on disk", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // state.json of WAIT_PLAN_APPROVAL is slow to write (a loaded disk).
    const stream = start(watchedHost(suite.ws.host, (text) => (text.includes('"currentNode": "WAIT_PLAN_APPROVAL"') ? held : undefined)));
    const planning = await stream.until('PLAN');
    const runId = planning.stateId;
    await eventually(() => suite.ws.transitions(runId).includes('PLAN→WAIT_PLAN_APPROVAL'), 'the line written while state.json is held');
    assert.equal(suite.ws.state(runId).codingState.currentNode, 'PLAN');
    assert.ok(await stream.quietFor(100), 'not shown before its state.json is on disk');
    release();
    const waiting = await stream.next();
    assert.equal(waiting.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.equal(suite.ws.state(runId).codingState.currentNode, 'WAIT_PLAN_APPROVAL');
  });

  it('rewrites state.json after a model call only when the call adds to the usage on disk, and once for calls recorded together', async () => {
    const writes: Array<{ node: string; inputTokens: number }> = [];
    let planner: TraceSink | null = null;
    let finish: () => void = () => undefined;
    const host = watchedHost(suite.ws.host, (text) => {
      const { codingState } = JSON.parse(text) as { codingState: { currentNode: string; usage: Usage } };
      writes.push({ node: codingState.currentNode, inputTokens: codingState.usage.inputTokens });
    });
    const stream = start(host, (traceFor) =>
      fromPromise<PlanOutput, PlanInput>(async ({ input }) => {
        planner = traceFor(input.stateId);
        await new Promise<void>((resolve) => (finish = resolve));
        return { ...planOutput(), usage: usage(5 + 7 + 11, 6) };
      }),
    );
    await stream.until('PLAN');
    await eventually(() => planner !== null && writes.some((write) => write.node === 'PLAN'), 'PLAN written');
    const record = (spent: Usage): void => planner?.record(modelCall(spent));
    // A call that spent nothing (a demo or local model): state.json already says so.
    record(EMPTY_USAGE);
    await tick(50);
    record(usage(5, 2));
    await eventually(() => writes.at(-1)?.inputTokens === 5, 'checkpoint of the first paid call');
    // Two calls at once: the first one's checkpoint is covered by the second's.
    record(usage(7, 2));
    record(usage(11, 2));
    await eventually(() => writes.at(-1)?.inputTokens === 23, 'checkpoint of both');
    await tick(50);
    finish();
    await stream.until('WAIT_PLAN_APPROVAL');
    assert.deepEqual(
      writes.map(({ node, inputTokens }) => `${node} ${inputTokens}`),
      ['INIT 0', 'PLAN 0', 'PLAN 5', 'PLAN 23', 'WAIT_PLAN_APPROVAL 23'],
    );
  });
});
