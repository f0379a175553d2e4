// A timeline step's turns in the panel: the view of the turns, the panel state that holds them, the
// message check, and the extension's answer read from a real events.jsonl.

import { strict as assert } from 'node:assert';
import type { TurnEvent } from '../../../src/core/trace';
import { RunStore } from '../../../src/core/workflow/store';
import { stepTurnsMessage } from '../../../src/extension/step-turns';
import { webviewMessageSchema } from '../../../src/shared/protocol';
import { INITIAL_PANEL_STATE, reducePanel } from '../../../webview-ui/src/state/panel-state';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { stepTurnsView } from '../../../webview-ui/src/state/step-turns';
import { TempWorkspace } from '../workflow/temp-workspace';
import { makeRun } from './fixtures';

function turn(step: 'PLAN' | 'CODE', iteration: number, n: number, overrides: Partial<TurnEvent> = {}): TurnEvent {
  return {
    kind: 'turn',
    at: '2026-11-25T10:00:00.000Z',
    trace_id: '0'.repeat(32),
    step,
    iteration,
    turn: n,
    role: step === 'PLAN' ? 'planner' : 'coder',
    intent: 'call_tool',
    provider: 'anthropic',
    model: 'claude-x',
    stop_reason: 'tool_use',
    tool_calls: [
      { tool_call: { name: 'read_file', args_valid: true }, tool_result: { ok: true, err: 'None', schema_ok: true }, latency_ms: 12 },
    ],
    policy: { max_turns: 40, max_malformed: 3, max_iterations: 5, approvals: { plan: 'always', diffs: 'always' } },
    outcome: { status: 'continue', next_action: 'call_model' },
    retry: false,
    timings: { latency_ms: 1500, model_ms: 1488, tools_ms: 12 },
    tokens: { input: 12_345, output: 210, cache_read: 0, cache_write: 0, cost_usd: 0.0421 },
    ...overrides,
  };
}

describe('webview step turns', () => {
  it('shows each conversation of the step with its turns: agent, calls, outcome, duration, tokens', () => {
    const failedCall = {
      tool_call: { name: 'nope', args_valid: false },
      tool_result: { ok: false, err: 'NotFound', schema_ok: false },
      latency_ms: 0,
    };
    const groups = stepTurnsView([
      {
        label: 'CODE 1',
        turns: [
          turn('CODE', 1, 1, { tool_calls: [failedCall], outcome: { status: 'malformed', next_action: 'call_model' } }),
          turn('CODE', 1, 2, { retry: true, intent: 'submit', outcome: { status: 'done', next_action: 'end_step' } }),
        ],
      },
      {
        label: 'CODE 2',
        turns: [
          turn('CODE', 2, 1, {
            tool_calls: [],
            intent: 'answer_text',
            outcome: { status: 'failed', next_action: 'end_step', error: 'cancelled by you' },
          }),
        ],
      },
    ]);
    assert.deepEqual(
      groups.map((g) => [g.label, g.subtitle]),
      [
        ['CODE 1', 'coder · anthropic/claude-x · 2 turns'],
        ['CODE 2', 'coder · anthropic/claude-x · 1 turn'],
      ],
    );
    assert.deepEqual(
      groups[0].rows.map((r) => [r.title, r.outcome, r.tone, r.duration, r.tokens, r.calls.map((c) => [c.name, c.ok, c.detail])]),
      [
        [
          '#1 called tools',
          'malformed',
          'warn',
          '1.5 s',
          '12.3k in · 210 out · $0.04',
          [['nope', false, 'NotFound · arguments refused · 0 ms']],
        ],
        ['#2 submitted (retry)', 'done', 'ok', '1.5 s', '12.3k in · 210 out · $0.04', [['read_file', true, '12 ms']]],
      ],
    );
    assert.deepEqual(
      [groups[1].rows[0].title, groups[1].rows[0].tone, groups[1].rows[0].error],
      ['#1 answered in text only', 'error', 'cancelled by you'],
    );
  });

  it('holds the opened turns for their run only, until closed', () => {
    const groups = [{ label: 'PLAN', turns: [turn('PLAN', 0, 1)] }];
    const message = { type: 'stepTurns' as const, runId: 'run-1', node: 'PLAN' as const, groups };
    let state = reducePanel(INITIAL_PANEL_STATE, message);
    assert.deepEqual(state.stepTurns, { runId: 'run-1', node: 'PLAN', groups });
    state = reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-1' }), busy: true, statusText: '' });
    assert.equal(state.stepTurns?.node, 'PLAN', 'kept while the same run moves on');
    assert.equal(reducePanel(state, { type: 'closeStepTurns' }).stepTurns, null);
    assert.equal(reducePanel(state, { type: 'state', run: makeRun({ stateId: 'run-2' }), busy: false, statusText: '' }).stepTurns, null);
  });

  it('accepts a well-formed stepTurns message and nothing else of that type', () => {
    const good = { type: 'stepTurns', runId: 'r', node: 'CODE', groups: [{ label: 'CODE 1', turns: [turn('CODE', 1, 1)] }] };
    assert.deepEqual(parseExtensionMessage(good), good);
    assert.equal(parseExtensionMessage({ ...good, node: 'VALIDATE' }), null);
    assert.equal(parseExtensionMessage({ ...good, groups: [{ label: 'CODE 1', turns: [{ turn: 1 }] }] }), null);
    assert.equal(parseExtensionMessage({ ...good, groups: [{ label: 'CODE 1', turns: [] }] }), null);
    assert.equal(parseExtensionMessage({ ...good, groups: [{ turns: [turn('CODE', 1, 1)] }] }), null);
    assert.equal(parseExtensionMessage({ ...good, groups: 'x' }), null);
    assert.equal(webviewMessageSchema.safeParse({ type: 'showStepTurns', runId: 'r', node: 'CODE' }).success, true);
    assert.equal(webviewMessageSchema.safeParse({ type: 'showStepTurns', runId: 'r', node: 'VALIDATE' }).success, false);
  });

  it("answers a click with the step's turns from the run's events.jsonl, and none for a run it cannot read", async () => {
    const ws = new TempWorkspace();
    try {
      const store = new RunStore(ws.host);
      await store.appendEvent('run-9', { kind: 'transition', at: '2026-11-25T10:00:00.000Z', from: null, to: 'PLAN', iteration: 0 });
      await store.appendEvent('run-9', turn('PLAN', 0, 1));
      await store.appendEvent('run-9', turn('CODE', 1, 1));
      await store.appendEvent('run-9', turn('CODE', 1, 2));
      const code = await stepTurnsMessage(store, 'run-9', 'CODE');
      assert.equal(code.type, 'stepTurns');
      // Grouped by conversation on the extension's side: the panel gets the groups.
      assert.deepEqual(code.type === 'stepTurns' ? code.groups.map((g) => [g.label, g.turns.map((t) => [t.step, t.turn])]) : null, [
        [
          'CODE 1',
          [
            ['CODE', 1],
            ['CODE', 2],
          ],
        ],
      ]);
      const plan = await stepTurnsMessage(store, 'run-9', 'PLAN');
      assert.deepEqual(plan.type === 'stepTurns' ? plan.groups.map((g) => [g.label, g.turns.length]) : null, [['PLAN', 1]]);
      const unreadable = await stepTurnsMessage(store, '../escape', 'PLAN');
      assert.deepEqual(unreadable, { type: 'stepTurns', runId: '../escape', node: 'PLAN', groups: [] });
    } finally {
      ws.remove();
    }
  });
});
