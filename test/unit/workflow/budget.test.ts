// Budgets: checked after every model call; the first one reached stops the step and escalates,
// named in the state and the hand-off; at WAIT_HUMAN a person raises it and the run goes on.

import { strict as assert } from 'node:assert';
import { fromPromise } from 'xstate';
import { AgentModeError } from '../../../src/core/errors';
import type { Usage } from '../../../src/core/model';
import { budgetReached, raiseBudget } from '../../../src/core/workflow/budget';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import type { PlanInput, PlanOutput } from '../../../src/core/workflow/run-context';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import type { TraceSink } from '../../../src/core/trace';
import { FakeSteps } from './fake-steps';
import { StateStream, tempWorkspaceEachTest } from './orchestrator-harness';
import { baseline, usage, workflow } from './samples';

const spent = (tokens: number, costUsd: number, costUnknown = false): Usage => ({
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
  ...(costUnknown ? { costUnknown: true as const } : {}),
});

describe('run budgets', () => {
  it('names the first budget reached: cost, then tokens, then minutes; none below every limit', () => {
    const budget = { maxCostUsd: 0.5, maxTokens: 1000, maxMinutes: 2 };
    assert.equal(budgetReached(budget, spent(999, 0.49), 119_000), null);
    assert.deepEqual(budgetReached(budget, spent(10, 0.5), 0), {
      budget: 'maxCostUsd',
      flag: '--max-cost',
      limit: 0.5,
      spent: 0.5,
      message: 'Budget reached: --max-cost $0.5 (spent $0.5000).',
    });
    assert.deepEqual(budgetReached(budget, spent(1000, 0.1), 0), {
      budget: 'maxTokens',
      flag: '--max-tokens',
      limit: 1000,
      spent: 1000,
      message: 'Budget reached: --max-tokens 1000 (used 1000 tokens).',
    });
    assert.deepEqual(budgetReached(budget, spent(1, 0), 120_000), {
      budget: 'maxMinutes',
      flag: '--max-minutes',
      limit: 2,
      spent: 2,
      message: 'Budget reached: --max-minutes 2 (ran 2.0 minutes).',
    });
    assert.equal(budgetReached(undefined, spent(1e9, 1e6), 1e9), null, 'no budget, no limit');
  });

  it('a cost budget cannot be held with a model of unknown price: says so, never a figure', () => {
    const reached = budgetReached({ maxCostUsd: 5 }, spent(300, 0, true), 0);
    assert.equal(reached?.spent, null);
    assert.equal(
      reached?.message,
      'Budget --max-cost $5 cannot be held: a model without a known price was used, so the cost is unknown (300 tokens so far).',
    );
    assert.equal(budgetReached({ maxTokens: 500 }, spent(300, 0, true), 0), null, 'a token budget still works');
  });

  it('a raised budget replaces only the fields given', () => {
    assert.deepEqual(raiseBudget({ maxCostUsd: 1, maxTokens: 10 }, { maxCostUsd: 3 }), { maxCostUsd: 3, maxTokens: 10 });
    assert.deepEqual(raiseBudget({ maxCostUsd: 1 }, { maxTokens: -5 }), { maxCostUsd: 1 });
  });
});

describe('a run that reaches its budget (orchestrator over fake steps)', function () {
  this.timeout(15_000);
  const suite = tempWorkspaceEachTest();
  const { controllers } = suite;

  /** A planner that makes two model calls of 13 and 17 tokens, then works until it is stopped. */
  let plannerStops = 0;
  function spendingPlanner(traceFor: (runId: string) => TraceSink) {
    return fromPromise<PlanOutput, PlanInput>(async ({ input, signal }) => {
      for (const call of [usage(11, 2), usage(13, 4)]) {
        traceFor(input.stateId).record({
          kind: 'model_call',
          at: new Date().toISOString(),
          agent: 'planner',
          model: 'm',
          durationMs: 1,
          stopReason: 'tool_use',
          usage: call,
        });
      }
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      plannerStops += 1;
      throw new AgentModeError('planner: cancelled', 'CANCELLED');
    });
  }

  it('escalates at the call that reaches --max-tokens, names it in the state and HANDOFF.md; raised at WAIT_HUMAN, the run plans again', async () => {
    const deps = { host: suite.ws.host } as unknown as OrchestratorDeps;
    const runs = new RunOrchestrator(suite.ws.host, (store, traceFor) => ({
      ...new FakeSteps().script('captureBaseline', { output: baseline() }).actors(),
      writeHandoff: createStepActors(deps, store, traceFor).writeHandoff,
      plan: spendingPlanner(traceFor),
    }));
    const controller = new AbortController();
    controllers.push(controller);
    const stream = new StateStream(
      runs.execute('Fix Add', workflow({ workspaceRoot: suite.ws.dir, budget: { maxTokens: 20 } }), controller.signal),
    );
    const waiting = await stream.until('WAIT_HUMAN');
    assert.deepEqual(stream.nodes(), ['INIT', 'PLAN', 'ESCALATE', 'WAIT_HUMAN']);
    assert.equal(plannerStops, 1, 'the planner was stopped at that boundary');
    assert.equal(waiting.usage.inputTokens + waiting.usage.outputTokens, 30, 'both calls counted');
    const help = waiting.metadata.helpRequest as { from: string; budget: Record<string, unknown> };
    assert.equal(help.from, 'PLAN');
    assert.deepEqual(help.budget, {
      budget: 'maxTokens',
      flag: '--max-tokens',
      limit: 20,
      spent: 30,
      message: 'Budget reached: --max-tokens 20 (used 30 tokens).',
    });
    assert.match(
      suite.ws.runFile(waiting.stateId, 'HANDOFF.md') ?? '',
      /Budget reached: --max-tokens 20 \(used 30 tokens\)\. The run stopped during PLAN; raise the budget to continue, or stop\./,
    );

    await runs.approve(waiting.stateId, { type: 'CONTINUE', guidance: 'go on', additionalIterations: 1, budget: { maxTokens: 1000 } });
    await stream.until('PLAN');
    const machine = suite.ws.state(waiting.stateId).machine as { context: { workflow: { budget: unknown } } };
    assert.deepEqual(machine.context.workflow.budget, { maxTokens: 1000 });
    // The planner spends 30 more (60 in all): under the raised budget, it is not stopped.
    assert.equal(await stream.quietFor(300), true);
    assert.equal(plannerStops, 1);
    await runs.cancel(waiting.stateId);
  });
});
