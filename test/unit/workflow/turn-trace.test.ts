// The per-turn trace (seed 004 §8) of a real planner conversation: the real tool loop, tools and
// bundled agents with a scripted model; the step's sink wrapped as the workflow wraps it.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { runPlanner, SUBMIT_PLAN_TOOL } from '../../../src/core/agents/planner/runner';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import type { TurnEvent } from '../../../src/core/trace';
import { stepTurnContext, traceIdOf, withTurnTrace } from '../../../src/core/workflow/turn-trace';
import { percentile, summarizeTurns, turnsOf } from '../../../src/core/workflow/trace-summary';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from '../agents/agent-harness';
import { workflow } from './samples';
import { countHashes } from '../../support/count-hashes';

const PLAN = {
  spec: 'Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [{ number: 1, description: 'Use / in Divide', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' }],
    affectedFiles: [CALCULATOR_SOURCE],
    complexity: 'LOW',
  },
};

describe('turn trace', () => {
  let root: string;
  beforeEach(async () => (root = await copyCalculator()));
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  let providerLookups = 0;

  async function planWith(model: ScriptedModelClient): Promise<{ turns: TurnEvent[]; error: unknown }> {
    const rt = await agentRuntime(root, model);
    const base = rt.trace!;
    const flow = workflow({
      workspaceRoot: root,
      maxIterations: 4,
      approval: { plan: 'never', diffs: 'first' },
      budget: { maxTokens: 9000 },
    });
    const step = stepTurnContext(rt.agents, { stateId: 'run-7', workflow: flow }, 'PLAN', 0, SUBMIT_PLAN_TOOL);
    providerLookups = 0;
    const context = { ...step, providerOf: (agent: string) => ((providerLookups += 1), step.providerOf(agent)) };
    let error: unknown = null;
    try {
      await withTurnTrace(base, context, (trace) => runPlanner({ ...rt, trace }, { request: 'Fix Divide', baseline: null }));
    } catch (caught) {
      error = caught;
    }
    return { turns: turnsOf(rt.events), error };
  }

  it('writes one turn per model call: intent, each call with its argument validity and result kind, policy, outcome, tokens', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('read_file', { path: CALCULATOR_SOURCE })], { usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.5 } }),
      modelTurn([toolUseBlock('no_such_tool', {}), toolUseBlock('read_file', { path: 'src/Missing.cs' })], {
        usage: { inputTokens: 200, outputTokens: 20 },
      }),
      modelTurn('Thinking aloud.', { usage: { inputTokens: 300, outputTokens: 30 } }),
      modelTurn([toolUseBlock('submit_plan', { spec: 'x' })], { usage: { inputTokens: 400, outputTokens: 40 } }),
      modelTurn([toolUseBlock('submit_plan', PLAN)], { usage: { inputTokens: 500, outputTokens: 50, cacheReadTokens: 7 } }),
    ]);
    const { turns, error } = await planWith(model);
    assert.equal(error, null);
    assert.deepEqual(
      turns.map((t) => [t.turn, t.intent, t.outcome.status, t.outcome.next_action, t.retry, t.tokens.input]),
      [
        [1, 'call_tool', 'continue', 'call_model', false, 100],
        [2, 'call_tool', 'malformed', 'call_model', false, 200],
        [3, 'answer_text', 'malformed', 'call_model', true, 300],
        [4, 'submit', 'malformed', 'call_model', true, 400],
        [5, 'submit', 'done', 'end_step', true, 500],
      ],
    );
    assert.deepEqual(
      turns[1].tool_calls.map((c) => [c.tool_call, c.tool_result]),
      [
        [
          { name: 'no_such_tool', args_valid: false },
          { ok: false, err: 'NotFound', schema_ok: false },
        ],
        [
          { name: 'read_file', args_valid: true },
          { ok: false, err: 'NotFound', schema_ok: false },
        ],
      ],
    );
    assert.deepEqual(
      turns[3].tool_calls.map((c) => [c.tool_call, c.tool_result.err]),
      [[{ name: 'submit_plan', args_valid: false }, 'InvalidInput']],
    );
    assert.deepEqual(
      turns[4].tool_calls.map((c) => [c.tool_call, c.tool_result]),
      [
        [
          { name: 'submit_plan', args_valid: true },
          { ok: true, err: 'None', schema_ok: true },
        ],
      ],
    );
    const first = turns[0];
    assert.equal(first.trace_id, traceIdOf('run-7'));
    assert.match(first.trace_id, /^[0-9a-f]{32}$/);
    assert.deepEqual(
      [first.step, first.iteration, first.role, first.provider, first.model, first.stop_reason],
      ['PLAN', 0, 'planner', 'anthropic', 'scripted-model', 'tool_use'],
    );
    assert.deepEqual(first.policy, {
      max_turns: 25,
      max_malformed: 3,
      max_iterations: 4,
      approvals: { plan: 'never', diffs: 'first' },
      budget: { max_tokens: 9000 },
    });
    assert.deepEqual(first.tokens, { input: 100, output: 10, cache_read: 0, cache_write: 0, cost_usd: 0.5 });
    assert.equal(turns[4].tokens.cache_read, 7);
    // Worked out once for the step, not per turn; every turn names it.
    assert.equal(providerLookups, 1);
    assert.deepEqual(new Set(turns.map((t) => `${t.trace_id} ${t.provider}`)), new Set([`${traceIdOf('run-7')} anthropic`]));

    const summary = summarizeTurns(turns);
    assert.deepEqual(summary.turnsPerStep, [{ label: 'PLAN', turns: 5 }]);
    assert.deepEqual([summary.toolCalls, summary.failedToolCalls, summary.retries, summary.malformedTurns], [5, 3, 3, 3]);
    assert.deepEqual(summary.errorKinds, [
      { kind: 'NotFound', count: 2 },
      { kind: 'InvalidInput', count: 1 },
    ]);
    assert.deepEqual([summary.tokens.input, summary.tokens.output, summary.tokens.cacheRead], [1500, 150, 7]);
  });

  it('closes the last turn as failed, with the reason, when the step throws', async () => {
    const model = new ScriptedModelClient([modelTurn('no tools'), modelTurn('still none'), modelTurn('none'), modelTurn('never')]);
    const { turns, error } = await planWith(model);
    assert.ok(error instanceof Error);
    assert.deepEqual(
      turns.map((t) => t.outcome.status),
      ['malformed', 'malformed', 'malformed', 'failed'],
    );
    assert.match(turns[3].outcome.error ?? '', /4 malformed answers in a row/);
    assert.equal(turns[3].outcome.next_action, 'end_step');
  });

  it('takes the nearest-rank 95th percentile', () => {
    assert.equal(percentile([], 95), null);
    assert.equal(percentile([5], 95), 5);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95), 19);
    assert.equal(percentile([3, 1, 2], 95), 3);
  });
});

describe('trace id', () => {
  it('is worked out once for a run, however many of its steps and spans ask, and again for another run', () => {
    const hashes = countHashes();
    try {
      const ids = ['run-a', 'run-a', 'run-a', 'run-b', 'run-b'].map(traceIdOf);
      const expected = (runId: string): string => hashes.createHash('sha256').update(`ironbees-run:${runId}`).digest('hex').slice(0, 32);
      assert.deepEqual(ids, [expected('run-a'), expected('run-a'), expected('run-a'), expected('run-b'), expected('run-b')]);
      assert.match(ids[0], /^[0-9a-f]{32}$/);
      assert.deepEqual(hashes.algorithms, ['sha256', 'sha256']);
    } finally {
      hashes.restore();
    }
  });
});
