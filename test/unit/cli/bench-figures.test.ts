// A bench task's figures from what its run recorded: the pass judgement and each count from the trace.

import assert from 'node:assert/strict';
import { figuresOf } from '../../../src/cli/commands/bench/run-figures';
import type { BenchTask } from '../../../src/cli/commands/bench/task-file';
import type { CodingState, TestResult } from '../../../src/core/model';
import type { TraceEvent, TurnEvent } from '../../../src/core/trace';

const TASK: BenchTask = { id: 't', repo: '/r', request: 'R', failToPass: ['A.Fixed'], passToPass: ['A.Keep', 'A.Other'] };

function turn(over: Partial<TurnEvent>): TurnEvent {
  return {
    kind: 'turn',
    at: '',
    trace_id: 'x',
    step: 'CODE',
    iteration: 1,
    turn: 1,
    role: 'coder',
    intent: 'call_tool',
    provider: 'p',
    model: 'm',
    stop_reason: 'tool_use',
    tool_calls: [],
    policy: { max_turns: 1, max_malformed: 1, max_iterations: 1, approvals: { plan: 'always', diffs: 'always' } },
    outcome: { status: 'continue', next_action: 'call_model' },
    retry: false,
    timings: { latency_ms: 1, model_ms: 1, tools_ms: 0 },
    tokens: { input: 100, output: 10, cache_read: 300, cache_write: 0, cost_usd: 0.01 },
    ...over,
  };
}

const call = (tool: string, ok: boolean, over: object = {}): TraceEvent => ({
  kind: 'tool_call',
  at: '',
  agent: 'coder',
  tool,
  ok,
  durationMs: 1,
  ...over,
});
const tests = (over: Partial<TestResult>): TestResult => ({
  success: true,
  total: 3,
  passed: 3,
  failed: 0,
  skipped: 0,
  failures: [],
  durationMs: 1,
  ...over,
});
const STATE = {
  currentNode: 'SUCCESS',
  iterationCount: 2,
  usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: 600, cacheWriteTokens: 0, costUsd: 0.02 },
} as CodingState;

describe('bench run figures', () => {
  const events: TraceEvent[] = [
    turn({ intent: 'answer_text', stop_reason: 'end_turn' }),
    turn({ stop_reason: 'max_tokens' }),
    call('str_replace_based_edit_tool', false, { failureKind: 'NotFound', error: 'old_str not found' }),
    call('str_replace_based_edit_tool', false, {
      failureKind: 'InvalidInput',
      error: 'src/A.cs already exists (3 lines); create only makes new files and never overwrites one.',
    }),
    call('str_replace_based_edit_tool', true),
    call('check_code', false),
    call('check_code', true),
    { kind: 'compile_check', at: '', round: 1, ok: false, errors: 2, durationMs: 1 },
    { kind: 'edit_applied', at: '', filePath: 'src/A.cs', type: 'MODIFY' },
    { kind: 'edit_applied', at: '', filePath: 'tests/A.Tests/ATests.cs', type: 'MODIFY' },
  ];

  it('passes when the fail_to_pass tests were fixed and no pass_to_pass test fails, with every count from the trace', () => {
    const figures = figuresOf(TASK, {
      runId: 'r1',
      state: STATE,
      validations: [
        {
          iteration: 1,
          passed: false,
          test: tests({ success: false, failed: 1, failures: [{ testName: 'A.Fixed', message: '', stackTrace: '' }] }),
        },
        { iteration: 2, passed: true, test: tests({ skipped: 1 }), fixedFailures: ['A.Fixed'] },
      ],
      baseline: { passed: false, test: tests({ skipped: 0 }) },
      events,
      handoff: '',
      wallMs: 5,
    });
    assert.deepEqual(figures, {
      runId: 'r1',
      finalNode: 'SUCCESS',
      pass: true,
      failToPass: [{ name: 'A.Fixed', ok: true }],
      passToPass: [
        { name: 'A.Keep', ok: true },
        { name: 'A.Other', ok: true },
      ],
      iterationsToGreen: 2,
      iterations: 2,
      protocol: { turns: 2, plainTextTurns: 1, malformedTurns: 0, maxTokensStops: 1, budgetExhaustions: 0, stuckStops: 0 },
      edits: { strReplaceFailures: [{ kind: 'NotFound', count: 1 }], refusedCreates: 1 },
      compile: { checkCodeCalls: 2, checkCodeFailures: 1, preReviewChecks: 1, preReviewFailures: 1 },
      integrity: { testFilesTouched: ['tests/A.Tests/ATests.cs'], skipsAdded: 1 },
      tokens: { input: 200, output: 20, cacheRead: 600, cacheWrite: 0 },
      cacheShare: 0.75,
      costUsd: 0.02,
      wallMs: 5,
    });
  });

  it('fails when a pass_to_pass test fails or never ran, and counts a budget stop from the hand-off', () => {
    const figures = figuresOf(TASK, {
      runId: 'r1',
      state: { ...STATE, currentNode: 'WAIT_HUMAN' } as CodingState,
      validations: [
        {
          iteration: 1,
          passed: false,
          test: tests({ failures: [{ testName: 'A.Keep', message: '', stackTrace: '' }] }),
          fixedFailures: ['A.Fixed'],
        },
      ],
      baseline: { passed: false, test: tests({}), ranTests: { 'tests/A.Tests': ['A.Fixed', 'A.Keep'] } },
      events: [],
      handoff: 'The run has cost $1.02, over --max-cost 1.',
      wallMs: 5,
    });
    assert.equal(figures.pass, false);
    assert.deepEqual(figures.passToPass, [
      { name: 'A.Keep', ok: false },
      { name: 'A.Other', ok: false },
    ]);
    assert.equal(figures.iterationsToGreen, null);
    assert.deepEqual(figures.protocol, {
      turns: 0,
      plainTextTurns: 0,
      malformedTurns: 0,
      maxTokensStops: 0,
      budgetExhaustions: 1,
      stuckStops: 0,
    });
  });

  it('a run with no validation after an edit cannot pass and says so', () => {
    const figures = figuresOf(TASK, { runId: 'r1', state: STATE, validations: [], baseline: null, events: [], handoff: '', wallMs: 1 });
    assert.equal(figures.pass, false);
    assert.equal(figures.note, 'no validation after an edit was recorded');
    assert.equal(figures.integrity.skipsAdded, null);
  });
});
