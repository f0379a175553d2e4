// The phases a CODE step runs at once are saved and shown as they start and end (live-phases.ts):
// while the step is still running, state.json and the states the run yields hold each phase's
// status and worktree, exactly as the step last showed them. When a phase stops the others, the
// escalation (state.json, the yielded state, HANDOFF.md) shows the phases as they ran, until the
// person answers.

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import type { PhaseState } from '../../../src/core/model';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { CodeInput, CodeOutput } from '../../../src/core/workflow/run-context';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import * as fs from 'node:fs';
import { AgentModeError } from '../../../src/core/errors';
import { carryingPhases, phasesCarriedBy, shownPhases } from '../../../src/core/workflow/live-phases';
import { PHASE_BLOCKED_CODE } from '../../../src/core/workflow/parallel-phases';
import { continuedWithGuidance } from '../../../src/core/workflow/escalation';
import type { RunContext } from '../../../src/core/workflow/run-context';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace } from './orchestrator-harness';
import { baseline, codeOutput, passing, plan, planOutput, workflow } from './samples';

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

  it('an escalation by a phase run at once shows the phases as they ran, in state.json and HANDOFF.md', async () => {
    const planned = (id: string, dependencies: string[]) => ({
      id,
      name: `Phase ${id}`,
      description: id,
      dependencies,
      steps: plan().steps,
      affectedFiles: plan().affectedFiles,
    });
    const phased = { ...planOutput(), plan: { ...plan(), phases: [planned('a', []), planned('b', []), planned('c', ['a', 'b'])] } };
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: phased })
      .script('validate', { output: passing() });
    const reason = 'Phase "b" (Phase b) ended FAILED in its worktree; the other phases were stopped. Its run is kept as r-phase-b.';
    const asRan: PhaseState[] = [
      { ...phase('a', 'complete'), iterationsRun: 1, endedAt: '2026-01-01T00:01:00.000Z', handoff: 'Did a.\nFiles changed: src/A.cs' },
      { ...phase('b', 'error'), iterationsRun: 3, endedAt: '2026-01-01T00:02:00.000Z', error: reason },
      phase('c', 'pending'),
    ];
    const deps = { host: ws.host } as unknown as OrchestratorDeps;
    const orchestrator = new RunOrchestrator(ws.host, (store, traceFor) => ({
      ...steps.actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      code: fromPromise<CodeOutput, CodeInput>(async () => {
        throw carryingPhases(new AgentModeError(reason, PHASE_BLOCKED_CODE), asRan);
      }),
    }));
    const stream = new StateStream(
      orchestrator.execute('Three phases', workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } })),
    );
    const escalated = await stream.until('ESCALATE');
    assert.deepEqual(escalated.phases, asRan);
    const waiting = await stream.until('WAIT_HUMAN');
    assert.deepEqual(waiting.phases, asRan);
    const saved = (await orchestrator.store.load(stream.runId)).codingState;
    assert.deepEqual(saved.phases, asRan);
    const handoff = fs.readFileSync(saved.metadata.handoffPath as string, 'utf8');
    const section = [
      '## Phases',
      '',
      '### Phase a (`a`): complete',
      '',
      '- Iterations: 1 of 3',
      '- Started 2026-01-01T00:00:00.000Z, ended 2026-01-01T00:01:00.000Z',
      '',
      'Did a.\nFiles changed: src/A.cs',
      '',
      '### Phase b (`b`): error',
      '',
      '- Iterations: 3 of 3',
      '- Started 2026-01-01T00:00:00.000Z, ended 2026-01-01T00:02:00.000Z',
      `- Stopped: ${reason}`,
      '',
      '### Phase c (`c`): pending',
      '',
      '- Iterations: 0 of 3',
      '- After: `a`, `b`',
      '',
    ].join('\n');
    assert.ok(handoff.includes(section), handoff);
    await orchestrator.cancel(stream.runId);
  });

  it("the phases an error carries are the escalation's until the person answers", () => {
    const phases = [phase('a', 'complete')];
    const error = carryingPhases(new AgentModeError('stopped', PHASE_BLOCKED_CODE, { usage: 1 }), phases);
    assert.equal(error.code, PHASE_BLOCKED_CODE);
    assert.deepEqual(error.details, { usage: 1, phases });
    assert.deepEqual(phasesCarriedBy(error), phases);
    assert.equal(phasesCarriedBy(new Error('other')), undefined);
    const answered = continuedWithGuidance({ phasesAtStop: phases, maxIterations: 3, iterationCount: 3 } as unknown as RunContext, {
      guidance: 'go on',
      additionalIterations: 1,
    });
    assert.equal(answered.phasesAtStop, null);
  });

  it("shows a phase without the run's own bookkeeping", () => {
    assert.deepEqual(shownPhases([{ ...phase('a', 'running', '/w'), firstIteration: 2 }]), [phase('a', 'running', '/w')]);
  });
});
