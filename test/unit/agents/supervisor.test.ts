// The supervisor (agents/supervisor/supervise.ts) around a stand-in agent: a model call that hangs
// until its signal aborts is stopped at the silence limit and the agent runs again with a
// continuation context; beats keep it alive; the third timeout is an AGENT_TIMEOUT error with the
// reason; a cancel is not a timeout. Each case waits for the supervisor to finish, never on a clock.

import assert from 'node:assert/strict';
import { supervise, AGENT_TIMEOUT_CODE } from '../../../src/core/agents/supervisor/supervise';
import { escalationReason } from '../../../src/core/agents/supervisor/policy';
import { HEARTBEAT_RECORD_INTERVAL_MS, HeartbeatRecorder } from '../../../src/core/agents/supervisor/records';
import type { AgentStatusChange, SupervisionRecords } from '../../../src/core/agents/supervisor/records';
import type { AgentRuntime } from '../../../src/core/agents/types';
import type { AgentUnit } from '../../../src/core/agents/unit';
import type { ModelClient, ModelRequest, ModelResponse } from '../../../src/core/llm/port';
import { AgentModeError } from '../../../src/core/errors';
import type { Usage } from '../../../src/core/model';
import type { TraceEvent } from '../../../src/core/trace';
import { createMemoryHost } from '../../support/memory-host';

const USAGE: Usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 };

type Call = (request: ModelRequest) => Promise<ModelResponse>;

/** Answers with `text` at once. */
const answer =
  (text: string): Call =>
  async (request) => {
    request.onText?.(text);
    return { content: [{ type: 'text', text }], stopReason: 'end_turn', model: 'm', usage: USAGE };
  };

/** Never answers; rejects when its signal aborts (as the SDK does). */
const hangs: Call = (request) =>
  new Promise((_, reject) => {
    if (request.signal?.aborted) reject(new Error('aborted'));
    request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });

interface Seen {
  continuation?: string;
  input: string;
}

/** An agent that "calls a tool" (an activity line), then makes one model call per run and returns its words. */
function standIn(seen: Seen[]): AgentUnit<string, { summary: string; usage: Usage }> {
  return {
    name: 'coder',
    terminalTool: {} as never,
    run: async (rt, input) => {
      seen.push({ continuation: rt.continuation, input });
      rt.activity?.emit({ kind: 'turn_start', agent: 'coder', turn: 1 });
      rt.activity?.emit({ kind: 'tool', agent: 'coder', turn: 1, tool: 'read_file', line: `read ${input}`, ok: true });
      const response = await rt.model.complete({
        model: 'm',
        system: '',
        tools: [],
        messages: [],
        maxTokens: 10,
        ...(rt.signal ? { signal: rt.signal } : {}),
        onText: () => {},
      });
      rt.trace?.record({ kind: 'model_call', at: '', agent: 'coder', model: 'm', durationMs: 0, stopReason: 'end_turn', usage: USAGE });
      const text = response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { summary: text, usage: USAGE };
    },
  };
}

function modelOf(calls: Call[]): ModelClient {
  return { complete: (request) => (calls.shift() ?? answer('unscripted'))(request) };
}

function recorder(): {
  records: SupervisionRecords;
  updates: Array<[string, AgentStatusChange]>;
  messages: string[];
  checkpoints: unknown[];
} {
  const updates: Array<[string, AgentStatusChange]> = [];
  const messages: string[] = [];
  const checkpoints: unknown[] = [];
  return {
    updates,
    messages,
    checkpoints,
    records: {
      update: async (agent, change) => void updates.push([agent, change]),
      checkpoint: async (_agent, checkpoint) => void checkpoints.push(checkpoint),
      message: async (message) => void messages.push(`${message.from}→${message.to} ${message.type}`),
    },
  };
}

function runtimeWith(model: ModelClient, events: TraceEvent[], signal?: AbortSignal): AgentRuntime {
  return {
    host: createMemoryHost(),
    model,
    tools: {} as never,
    agents: {} as never,
    trace: { record: (event) => events.push(event) },
    ...(signal ? { signal } : {}),
  };
}

const withoutAt = (events: TraceEvent[]): unknown[] =>
  events
    .filter((event) => event.kind === 'agent_timeout' || event.kind === 'agent_restarted')
    .map((event) => {
      const { at: _at, ...rest } = event;
      return rest;
    });

describe('the supervisor around an agent', () => {
  it('a hung model call is stopped and the agent restarted once with a continuation context; usage of both runs counts', async () => {
    const seen: Seen[] = [];
    const events: TraceEvent[] = [];
    // The first call hangs, the restarted agent's call answers.
    const unit = standIn(seen);
    const { records, messages, checkpoints, updates } = recorder();
    const activity: string[] = [];
    const output = await supervise({
      unit,
      runtime: {
        ...runtimeWith(modelOf([hangs, answer('done')]), events),
        activity: { emit: (event) => activity.push(event.kind === 'tool' ? `${event.tool}: ${event.line}` : event.kind) },
      },
      input: 'src/A.cs',
      silenceMs: 50,
      stagedFiles: async () => ['src/B.cs', 'src/A.cs'],
      records,
    });
    assert.equal(output.summary, 'done');
    // The hung call completed nothing, so only the restarted run's usage.
    assert.deepEqual(output.usage, USAGE);
    assert.equal(seen.length, 2);
    assert.equal(seen[0].continuation, undefined);
    assert.ok(seen[1].continuation?.startsWith('# Continuation context\n\nYou were interrupted: you (the coder)'));
    assert.ok(seen[1].continuation?.includes('## What you had done\n\n- read src/A.cs\n'));
    assert.ok(seen[1].continuation?.includes('\n- src/A.cs\n- src/B.cs\n'), 'the staged files, sorted');
    assert.deepEqual(withoutAt(events), [
      { kind: 'agent_timeout', agent: 'coder', timeout: 1, silentMs: 50, action: 'restart_with_context' },
      { kind: 'agent_restarted', agent: 'coder', attempt: 2, mode: 'continuation', stagedFiles: ['src/A.cs', 'src/B.cs'] },
    ]);
    assert.deepEqual(messages, ['supervisor→coder timeout:restart_with_context']);
    // The notice follows the restarted agent's first turn_start (a panel starts its list over there).
    assert.deepEqual(activity, [
      'turn_start',
      'read_file: read src/A.cs',
      'turn_start',
      'supervisor: silent for 0.05 s: stopped and restarted (with its progress; attempt 2)',
      'read_file: read src/A.cs',
    ]);
    assert.equal(checkpoints.length, 1);
    assert.deepEqual(
      updates.map(([agent, change]) => [agent, change.status]).filter(([, status]) => status !== undefined),
      [
        ['coder', 'working'],
        ['coder', 'timed_out'],
        ['coder', 'working'],
        ['coder', 'completed'],
      ],
    );
    const completed = updates.at(-1)?.[1];
    assert.equal(completed?.completed, true);
    assert.equal(completed?.summary, 'done');
    assert.deepEqual(completed?.artifacts, ['src/A.cs', 'src/B.cs']);
    assert.ok(updates.every(([, change]) => typeof change.lastHeartbeat === 'string'));
  });

  it('usage of a timed-out run that completed calls before it hung is added to the result', async () => {
    const unit: AgentUnit<string, { usage: Usage }> = {
      name: 'coder',
      terminalTool: {} as never,
      run: async (rt) => {
        const request = { model: 'm', system: '', tools: [], messages: [], maxTokens: 1, ...(rt.signal ? { signal: rt.signal } : {}) };
        await rt.model.complete(request);
        rt.trace?.record({ kind: 'model_call', at: '', agent: 'coder', model: 'm', durationMs: 0, stopReason: 'end_turn', usage: USAGE });
        await rt.model.complete(request);
        return { usage: USAGE };
      },
    };
    const output = await supervise({
      unit,
      runtime: runtimeWith(modelOf([answer('a'), hangs, answer('b'), answer('c')]), []),
      input: '',
      silenceMs: 50,
    });
    assert.deepEqual(output.usage, { inputTokens: 20, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 1 });
  });

  it('a call that keeps streaming is not silent, however long it takes', async () => {
    const events: TraceEvent[] = [];
    const slowButAlive: Call = async (request) => {
      for (let i = 0; i < 40; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        request.onProgress?.();
      }
      return answer('alive')(request);
    };
    const seen: Seen[] = [];
    // 800 ms of a call with a beat every 20 ms, under a 400 ms limit.
    const output = await supervise({
      unit: standIn(seen),
      runtime: runtimeWith(modelOf([slowButAlive]), events),
      input: 'x',
      silenceMs: 400,
    });
    assert.equal(output.summary, 'alive');
    assert.equal(seen.length, 1);
    assert.deepEqual(withoutAt(events), []);
  });

  it('three timeouts: continuation, then the reduced scope, then an AGENT_TIMEOUT error with the reason', async () => {
    const seen: Seen[] = [];
    const events: TraceEvent[] = [];
    const { records, updates } = recorder();
    const error = await supervise({
      unit: standIn(seen),
      runtime: runtimeWith(modelOf([hangs, hangs, hangs]), events),
      input: 'all steps',
      silenceMs: 50,
      stagedFiles: async () => ['src/A.cs'],
      reduceScope: (input, staged) => ({ input: `${input} but ${staged.join(',')}`, remaining: 'Only step 2.' }),
      records,
    }).then(
      () => assert.fail('expected an escalation'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AgentModeError);
    assert.equal(error.code, AGENT_TIMEOUT_CODE);
    assert.equal(error.message, escalationReason('coder', 0.05, 3, ['src/A.cs']));
    assert.deepEqual(
      seen.map((s) => [s.input, s.continuation?.split('\n')[0] ?? null]),
      [
        ['all steps', null],
        ['all steps', '# Continuation context'],
        ['all steps but src/A.cs', '# Restarted with a reduced scope'],
      ],
    );
    assert.ok(seen[2].continuation?.endsWith('## What remains\n\nOnly step 2.'));
    assert.deepEqual(
      withoutAt(events).map((event) => Object.values(event as Record<string, unknown>).join(' ')),
      [
        'agent_timeout coder 1 50 restart_with_context',
        'agent_restarted coder 2 continuation src/A.cs',
        'agent_timeout coder 2 50 restart_reduced_scope',
        'agent_restarted coder 3 reduced_scope src/A.cs',
        'agent_timeout coder 3 50 escalate',
      ],
    );
    assert.deepEqual(updates.at(-1)?.[1].status, 'escalated');
  });

  it('a cancelled run is not a timeout: the error goes up as it is, nothing restarts', async () => {
    const controller = new AbortController();
    const seen: Seen[] = [];
    const events: TraceEvent[] = [];
    const pending = supervise({
      unit: standIn(seen),
      runtime: runtimeWith(modelOf([hangs]), events, controller.signal),
      input: 'x',
      silenceMs: 60_000,
    });
    controller.abort();
    await assert.rejects(pending, /aborted/);
    assert.equal(seen.length, 1);
    assert.deepEqual(withoutAt(events), []);
  });

  it('the model is asked for words only when the agent listens and the run has an activity listener', async () => {
    const asked: boolean[] = [];
    const model: ModelClient = {
      complete: async (request) => {
        asked.push(typeof request.onText === 'function');
        request.onText?.('words');
        return { content: [{ type: 'text', text: 'words' }], stopReason: 'end_turn', model: 'm', usage: USAGE };
      },
    };
    const heard: string[] = [];
    const unit: AgentUnit<string, { summary: string; usage: Usage }> = {
      name: 'planner',
      terminalTool: {} as never,
      run: async (rt) => {
        const base = { model: 'm', system: '', tools: [], messages: [], maxTokens: 10 };
        await rt.model.complete(base);
        await rt.model.complete({ ...base, onText: (delta) => void heard.push(delta) });
        return { summary: 'done', usage: USAGE };
      },
    };
    // No activity listener for the run: nobody shows words, so none are asked for (the demo model would pace them).
    await supervise({ unit, runtime: runtimeWith(model, []), input: 'x', silenceMs: 60_000 });
    assert.deepEqual(asked, [false, false]);
    asked.length = 0;
    await supervise({ unit, runtime: { ...runtimeWith(model, []), activity: { emit: () => undefined } }, input: 'x', silenceMs: 60_000 });
    assert.deepEqual(asked, [false, true]);
    assert.deepEqual(heard, ['words']);
  });

  it("an agent's own failure is not a timeout: it goes up, recorded as failed", async () => {
    const { records, updates } = recorder();
    const unit: AgentUnit<string, unknown> = {
      name: 'planner',
      terminalTool: {} as never,
      run: async () => {
        throw new Error('model refused');
      },
    };
    await assert.rejects(supervise({ unit, runtime: runtimeWith(modelOf([]), []), input: '', silenceMs: 50, records }), /model refused/);
    assert.deepEqual(updates.at(-1)?.[1].status, 'failed');
    assert.equal(updates.at(-1)?.[1].message, 'model refused');
  });
});

describe('heartbeat records', () => {
  it('a status is written at once; beats at most every HEARTBEAT_RECORD_INTERVAL_MS; a failed write is logged, not thrown', async () => {
    const host = createMemoryHost();
    const { records, updates } = recorder();
    const warnings: string[] = [];
    const heartbeat = new HeartbeatRecorder(
      'coder',
      records,
      () => host.clock.now(),
      (message) => warnings.push(message),
    );
    await heartbeat.status({ status: 'working' });
    heartbeat.beat();
    host.tick(HEARTBEAT_RECORD_INTERVAL_MS - 1);
    heartbeat.beat();
    host.tick(1);
    heartbeat.beat();
    heartbeat.beat();
    await heartbeat.write(async () => {
      throw new Error('disk full');
    });
    assert.deepEqual(
      updates.map(([, change]) => change),
      [
        { status: 'working', lastHeartbeat: new Date(host.clock.now() - HEARTBEAT_RECORD_INTERVAL_MS).toISOString() },
        { lastHeartbeat: new Date(host.clock.now()).toISOString() },
      ],
    );
    assert.deepEqual(warnings, ["Could not write the coder's coordination record: disk full"]);
  });
});
