// The phases a CODE step runs at once are saved and shown as they start and end (live-phases.ts):
// while the step is still running, state.json and the states the run yields hold each phase's
// status and worktree, exactly as the step last showed them.

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import type { PhaseState } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { CodeInput, CodeOutput } from '../../../src/core/workflow/run-context';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import { shownPhases } from '../../../src/core/workflow/live-phases';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace } from './orchestrator-harness';
import { baseline, codeOutput, passing, planOutput, workflow } from './samples';

function phase(phaseId: string, status: PhaseState['status'], worktree?: string): PhaseState {
  return {
    phaseId,
    name: `Phase ${phaseId}`,
    status,
    iterationsRun: 0,
    maxIterations: 3,
    startedAt: status === 'pending' ? null : '2026-01-01T00:00:00.000Z',
    endedAt: null,
    ...(worktree ? { worktree } : {}),
  };
}

describe('live phases: a CODE step that runs phases at once shows them while it runs', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it('saves each phase with its worktree to state.json and yields it, before the step ends', async () => {
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('validate', { output: passing() });
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = [phase('a', 'running', '/w/.ironbees/worktrees/r-phase-a'), phase('b', 'pending')];
    const second = [phase('a', 'complete'), phase('b', 'running', '/w/.ironbees/worktrees/r-phase-b')];
    const deps = { host: ws.host } as unknown as OrchestratorDeps;
    const orchestrator = new RunOrchestrator(ws.host, (store, traceFor, _activity, phasesFor) => ({
      ...steps.actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      code: fromPromise<CodeOutput, CodeInput>(async ({ input }) => {
        // The step's git work comes first: its transition into CODE is saved by then.
        await new Promise((resolve) => setImmediate(resolve));
        await phasesFor(input.stateId)(first);
        await phasesFor(input.stateId)(second);
        await held;
        return codeOutput();
      }),
    }));
    const controller = new AbortController();
    const stream = new StateStream(
      orchestrator.execute(
        'Two phases',
        workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
        controller.signal,
      ),
    );
    try {
      await stream.until('CODE');
      const shownFirst = await stream.next();
      assert.equal(shownFirst.currentNode, 'CODE');
      assert.deepEqual(shownFirst.phases, first);
      const shownSecond = await stream.next();
      assert.deepEqual(shownSecond.phases, second);
      // On disk as shown (what `ironbees runs` and serve read), and what the orchestrator answers.
      assert.deepEqual((await orchestrator.store.load(stream.runId)).codingState.phases, second);
      assert.deepEqual((await orchestrator.getState(stream.runId)).phases, second);
      release();
      assert.equal((await stream.until('SUCCESS')).currentNode, 'SUCCESS');
    } finally {
      release();
      controller.abort();
    }
  });

  it("shows a phase without the run's own bookkeeping", () => {
    assert.deepEqual(shownPhases([{ ...phase('a', 'running', '/w'), firstIteration: 2 }]), [phase('a', 'running', '/w')]);
  });
});
