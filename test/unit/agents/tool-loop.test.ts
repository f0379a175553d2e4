import assert from 'node:assert/strict';
import { z } from 'zod';
import type { AgentDefinition } from '../../../src/core/agents/loader';
import { runToolLoop } from '../../../src/core/agents/tool-loop';
import type { TerminalTool, ToolLoopOptions } from '../../../src/core/agents/tool-loop';
import { renderTemplate } from '../../../src/core/agents/prompt-template';
import type { AgentRuntime } from '../../../src/core/agents/types';
import { AgentExecutionError, AgentModeError } from '../../../src/core/errors';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../../src/core/llm/scripted';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { submitChangesTool } from '../../../src/core/agents/coder/terminal-tool';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import type { TraceEvent } from '../../../src/core/trace';
import { createMemoryHost } from '../../support/memory-host';
import type { MemoryHost } from '../../support/memory-host';

function agentDef(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name: 'tester',
    description: 'test agent',
    version: '1',
    requiredTools: ['echo', 'fail_tool', 'submit_changes'],
    promptTemplate: 'prompt.md',
    llmConfig: { model: 'claude-haiku-4-5', maxTokens: 1000, temperature: 0 },
    toolConfig: { turnBudget: 6, maxMalformed: 2 },
    prompt: 'Agent {{agentName}}: {{turnBudget}} turns, tools {{tools}}, ends with {{terminalTool}}. {{unknownVar}}',
    sourceDir: '/agents/tester',
    origin: 'bundled',
    ...overrides,
  };
}

function makeTools(host: MemoryHost): ToolRegistry {
  const echo: ToolDefinition<{ text: string }> = {
    name: 'echo',
    description: 'Echoes text',
    input: z.object({ text: z.string() }),
    readonly: true,
    timeoutMs: 1000,
    execute: async (input) => {
      host.tick(7);
      return { ok: true, content: `echo: ${input.text}` };
    },
  };
  const failTool: ToolDefinition<Record<string, never>> = {
    name: 'fail_tool',
    description: 'Always fails',
    input: z.object({}),
    readonly: true,
    timeoutMs: 1000,
    execute: async () => ({ ok: false, error: 'fail_tool failed: try something else' }),
  };
  const slowTool: ToolDefinition<Record<string, never>> = {
    name: 'slow_tool',
    description: 'Times out',
    input: z.object({}),
    readonly: true,
    timeoutMs: 1000,
    execute: async () => ({ ok: false, kind: 'Timeout', error: 'slow_tool timed out after 1 s; ask for less at once.' }),
  };
  const hintTool: ToolDefinition<Record<string, never>> = {
    name: 'hint_tool',
    description: 'Offers a next step',
    input: z.object({}),
    readonly: true,
    timeoutMs: 1000,
    execute: async () => ({
      ok: true,
      content: '3 failing tests',
      observation: { summary: '3 failing tests', keyFacts: {}, affordances: ['details: call echo with the test name'] },
    }),
  };
  return new ToolRegistry().register(echo).register(failTool).register(slowTool).register(hintTool).register(submitChangesTool);
}

type RunOptions = Partial<Omit<ToolLoopOptions<string>, 'runtime'>> & { runtime?: Partial<AgentRuntime> };

interface Harness {
  host: MemoryHost;
  model: ScriptedModelClient;
  events: TraceEvent[];
  run(options?: RunOptions): ReturnType<typeof runToolLoop<string>>;
}

const acceptSummary: TerminalTool<string> = {
  name: 'submit_changes',
  accept: (input) => ({ ok: true, value: (input as { summary: string }).summary }),
};

function harness(agent: AgentDefinition = agentDef()): Harness {
  const host = createMemoryHost();
  const model = new ScriptedModelClient();
  const events: TraceEvent[] = [];
  const tools = makeTools(host);
  return {
    host,
    model,
    events,
    run: ({ runtime: runtimeOverrides, ...options } = {}) => {
      const runtime: AgentRuntime = {
        host,
        model,
        tools,
        agents: new Map(),
        trace: { record: (event) => events.push(event) },
        ...runtimeOverrides,
      };
      return runToolLoop<string>({
        agent,
        runtime,
        toolContext: { host, overlay: new StagedOverlay(host) },
        userMessage: 'Do the thing.',
        terminal: acceptSummary,
        ...options,
      });
    },
  };
}

function lastToolResults(model: ScriptedModelClient, call: number): ToolResultBlock[] {
  const messages = model.requests[call].messages;
  const last = messages[messages.length - 1];
  assert.equal(last.role, 'user');
  assert.ok(Array.isArray(last.content));
  return last.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

const usage = (input: number, output: number, costUsd = 0.001) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 2,
  cacheWriteTokens: 1,
  costUsd,
});

describe('runToolLoop', () => {
  it('runs tools until the terminal tool is accepted, summing usage and tracing every call', async () => {
    const h = harness();
    h.model.enqueue(
      modelTurn([textBlock('Looking.'), toolUseBlock('echo', { text: 'hi' }, 't1')], { usage: usage(100, 10), model: 'claude-haiku-4-5' }),
      modelTurn([toolUseBlock('submit_changes', { summary: 'done' }, 't2')], { usage: usage(120, 5), model: 'claude-haiku-4-5' }),
    );
    const result = await h.run();
    assert.equal(result.value, 'done');
    assert.equal(result.turns, 2);
    assert.deepEqual(result.usage, { inputTokens: 220, outputTokens: 15, cacheReadTokens: 4, cacheWriteTokens: 2, costUsd: 0.002 });

    const first = h.model.requests[0];
    assert.equal(first.model, 'claude-haiku-4-5');
    assert.equal(first.maxTokens, 1000);
    assert.equal(first.temperature, 0);
    assert.equal(first.toolChoice, 'auto');
    assert.equal(first.system, 'Agent tester: 6 turns, tools echo, fail_tool, submit_changes, ends with submit_changes. {{unknownVar}}');
    assert.deepEqual(
      first.tools.map((tool) => tool.name),
      ['echo', 'fail_tool', 'submit_changes'],
    );
    assert.deepEqual(first.messages, [{ role: 'user', content: 'Do the thing.' }]);
    // The second call repeats the first exactly and only appends: the prefix stays cacheable.
    const second = h.model.requests[1];
    assert.equal(second.system, first.system);
    assert.deepEqual(second.tools, first.tools);
    assert.deepEqual(second.messages.slice(0, 1), first.messages);
    assert.deepEqual(lastToolResults(h.model, 1), [{ type: 'tool_result', tool_use_id: 't1', content: 'echo: hi' }]);

    const kinds = h.events.map((event) => `${event.kind}:${event.kind === 'tool_call' ? event.tool : ''}`);
    assert.deepEqual(kinds, ['model_call:', 'tool_call:echo', 'model_call:', 'tool_call:submit_changes']);
    const modelCall = h.events[0];
    assert.ok(modelCall.kind === 'model_call');
    assert.equal(modelCall.agent, 'tester');
    assert.equal(modelCall.stopReason, 'tool_use');
    assert.equal(modelCall.usage.inputTokens, 100);
    const echoCall = h.events[1];
    assert.ok(echoCall.kind === 'tool_call');
    assert.equal(echoCall.ok, true);
    assert.equal(echoCall.durationMs, 7, 'latency measured with the host clock');
  });

  it('uses the runtime model override over the agent model', async () => {
    const h = harness();
    h.model.enqueue(modelTurn([toolUseBlock('submit_changes', { summary: 's' })]));
    await h.run({ runtime: { modelOverride: 'claude-opus-4-5' } });
    assert.equal(h.model.requests[0].model, 'claude-opus-4-5');
  });

  it('answers all calls of one turn in one user message, in order, with errors marked', async () => {
    const h = harness();
    h.model.enqueue(
      modelTurn([toolUseBlock('echo', { text: 'a' }, 'a'), toolUseBlock('fail_tool', {}, 'b'), toolUseBlock('echo', { text: 'c' }, 'c')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'ok' })]),
    );
    await h.run();
    assert.deepEqual(lastToolResults(h.model, 1), [
      { type: 'tool_result', tool_use_id: 'a', content: 'echo: a' },
      { type: 'tool_result', tool_use_id: 'b', content: '[InvalidInput] fail_tool failed: try something else', is_error: true },
      { type: 'tool_result', tool_use_id: 'c', content: 'echo: c' },
    ]);
    const failed = h.events.find((event) => event.kind === 'tool_call' && event.tool === 'fail_tool');
    assert.ok(failed && failed.kind === 'tool_call' && !failed.ok && failed.error?.includes('try something else'));
  });

  it('tells the model the failure kind and the affordances, leaves plain results alone, and traces the kind', async () => {
    const h = harness(agentDef({ requiredTools: ['echo', 'slow_tool', 'hint_tool', 'submit_changes'] }));
    h.model.enqueue(
      modelTurn([toolUseBlock('slow_tool', {}, 's'), toolUseBlock('hint_tool', {}, 'h'), toolUseBlock('echo', { text: 'plain' }, 'e')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'ok' })]),
    );
    await h.run();
    assert.deepEqual(lastToolResults(h.model, 1), [
      { type: 'tool_result', tool_use_id: 's', content: '[Timeout] slow_tool timed out after 1 s; ask for less at once.', is_error: true },
      { type: 'tool_result', tool_use_id: 'h', content: '3 failing tests\n[Next: details: call echo with the test name]' },
      { type: 'tool_result', tool_use_id: 'e', content: 'echo: plain' },
    ]);
    const traced = h.events.flatMap((event) => (event.kind === 'tool_call' ? [[event.tool, event.ok, event.failureKind]] : []));
    assert.deepEqual(traced, [
      ['slow_tool', false, 'Timeout'],
      ['hint_tool', true, undefined],
      ['echo', true, undefined],
      ['submit_changes', true, undefined],
    ]);
  });

  it('answers an unknown tool with the agent tools, bad arguments with the issues, plain text with a reminder', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 10, maxMalformed: 3 } }));
    h.model.enqueue(
      modelTurn([toolUseBlock('delete_everything', {}, 'u1')]),
      modelTurn([toolUseBlock('echo', { text: 42 }, 'u2')]),
      modelTurn('I think the answer is 42.'),
      modelTurn([toolUseBlock('submit_changes', { summary: 'fine' })]),
    );
    const result = await h.run();
    assert.equal(result.value, 'fine');
    const [unknown] = lastToolResults(h.model, 1);
    assert.equal(unknown.is_error, true);
    assert.match(unknown.content, /^\[NotFound\] Unknown tool "delete_everything"\. Your tools are: echo, fail_tool, submit_changes/);
    const [badArgs] = lastToolResults(h.model, 2);
    assert.equal(badArgs.is_error, true);
    assert.match(badArgs.content, /^\[InvalidInput\] Invalid arguments for echo:\n- text: /);
    const malformed = h.events.flatMap((event) => (event.kind === 'tool_call' && !event.ok ? [event.failureKind] : []));
    assert.deepEqual(malformed, ['NotFound', 'InvalidInput']);
    const reminder = h.model.requests[3].messages.at(-1);
    assert.equal(reminder?.role, 'user');
    assert.match(String(reminder?.content), /must act through a tool call.*call submit_changes/);
    assert.equal(h.model.requests[3].toolChoice, 'any', 'a plain-text answer forces a tool call next');
  });

  it('fails with AgentExecutionError after maxMalformed malformed answers in a row', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 10, maxMalformed: 2 } }));
    h.model.enqueue(modelTurn('text'), modelTurn([toolUseBlock('nope', {})]), modelTurn('more text'));
    await assert.rejects(h.run(), (error: unknown) => {
      assert.ok(error instanceof AgentExecutionError);
      assert.match(error.message, /^tester: gave 3 malformed answers in a row \(the limit is toolConfig\.maxMalformed = 2\)/);
      return true;
    });
    assert.equal(h.model.requests.length, 3);
  });

  it('resets the malformed count after a good turn', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 10, maxMalformed: 1 } }));
    h.model.enqueue(
      modelTurn('text'),
      modelTurn([toolUseBlock('echo', { text: 'ok' })]),
      modelTurn('text again'),
      modelTurn([toolUseBlock('submit_changes', { summary: 'made it' })]),
    );
    assert.equal((await h.run()).value, 'made it');
  });

  it('answers a terminal call with bad input with is_error and goes on', async () => {
    const h = harness();
    h.model.enqueue(
      modelTurn([toolUseBlock('submit_changes', { summary: '' }, 's1')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'real' })]),
    );
    const result = await h.run();
    assert.equal(result.value, 'real');
    const [refused] = lastToolResults(h.model, 1);
    assert.equal(refused.is_error, true);
    assert.match(refused.content, /Invalid arguments for submit_changes:\n- summary/);
  });

  it('lets the terminal refuse (not counted as malformed) and accepts a later call', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 10, maxMalformed: 0 } }));
    let calls = 0;
    const picky: TerminalTool<string> = {
      name: 'submit_changes',
      accept: () => (++calls === 1 ? { ok: false, error: 'Not yet: explain more.' } : { ok: true, value: 'second' }),
    };
    h.model.enqueue(
      modelTurn([toolUseBlock('submit_changes', { summary: 'a' })]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'b' })]),
    );
    const result = await h.run({ terminal: picky });
    assert.equal(result.value, 'second');
    assert.deepEqual(
      lastToolResults(h.model, 1).map((r) => [r.content, r.is_error]),
      [['Not yet: explain more.', true]],
    );
  });

  it('does not accept the terminal call when another call of the same turn failed', async () => {
    const h = harness();
    h.model.enqueue(
      modelTurn([toolUseBlock('fail_tool', {}, 'f'), toolUseBlock('submit_changes', { summary: 'too soon' }, 's')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'now' })]),
    );
    const result = await h.run();
    assert.equal(result.value, 'now');
    const [, submit] = lastToolResults(h.model, 1);
    assert.equal(submit.tool_use_id, 's');
    assert.equal(submit.is_error, true);
    assert.match(submit.content, /another call in this turn failed/);
  });

  it('stops at the turn budget with AgentExecutionError, after warning on the last call', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 3, maxMalformed: 3 } }));
    for (let i = 0; i < 3; i++) h.model.enqueue(modelTurn([toolUseBlock('echo', { text: String(i) })], { usage: usage(10, 1) }));
    await assert.rejects(h.run(), (error: unknown) => {
      assert.ok(error instanceof AgentExecutionError);
      assert.match(error.message, /did not finish with submit_changes within its turn budget of 3 model calls \(toolConfig\.turnBudget/);
      assert.equal((error.details.usage as { inputTokens: number }).inputTokens, 30, 'the usage spent is kept on the error');
      return true;
    });
    const lastMessage = h.model.requests[2].messages.at(-1);
    assert.ok(Array.isArray(lastMessage?.content));
    assert.ok(
      lastMessage.content.some((block) => block.type === 'text' && /one model call left\. Call submit_changes now/.test(block.text)),
    );
  });

  it('tells the model its budget at half and four fifths of it, in the tool results of that turn', async () => {
    const h = harness(agentDef({ toolConfig: { turnBudget: 10, maxMalformed: 2 } }));
    for (let i = 0; i < 8; i++) h.model.enqueue(modelTurn([toolUseBlock('echo', { text: String(i) }, `e${i}`)]));
    h.model.enqueue(modelTurn([toolUseBlock('submit_changes', { summary: 'done' })]));
    await h.run();
    const notes = h.model.requests.map((request) => {
      const last = request.messages[request.messages.length - 1];
      return Array.isArray(last.content)
        ? last.content.filter((block) => block.type === 'text').map((block) => (block.type === 'text' ? block.text : ''))
        : [];
    });
    assert.deepEqual(notes[5], [
      'Budget: you have used 5 of your 10 model calls (5 left). Keep the rest for what matters and call submit_changes before they run out.',
    ]);
    assert.deepEqual(notes[8], [
      'Budget: you have used 8 of your 10 model calls (2 left). Keep the rest for what matters and call submit_changes before they run out.',
    ]);
    assert.deepEqual(
      [1, 2, 3, 4, 6, 7].map((i) => notes[i]),
      [[], [], [], [], [], []],
    );
  });

  it('stops before calling the model when the signal is aborted', async () => {
    const h = harness();
    const controller = new AbortController();
    controller.abort();
    h.model.enqueue(modelTurn([toolUseBlock('submit_changes', { summary: 'never' })]));
    await assert.rejects(h.run({ runtime: { signal: controller.signal } }), (error: unknown) => {
      assert.ok(error instanceof AgentModeError);
      assert.equal(error.code, 'CANCELLED');
      return true;
    });
    assert.equal(h.model.requests.length, 0);
  });

  it('fails clearly when the model refuses, and when the terminal tool is not among the agent tools', async () => {
    const refusing = harness();
    refusing.model.enqueue(modelTurn('I cannot help with that.', { stopReason: 'refusal' }));
    await assert.rejects(refusing.run(), /tester: the model declined the task: I cannot help with that\./);

    const misconfigured = harness(agentDef({ requiredTools: ['echo'] }));
    await assert.rejects(misconfigured.run(), /must include submit_changes, the tool that ends its turn/);
  });
});

describe('renderTemplate', () => {
  it('fills {{var}} (spaces allowed) and leaves unknown names as they are', () => {
    assert.equal(renderTemplate('a {{x}} b {{ y }} c {{z}}', { x: 1, y: 'two' }), 'a 1 b two c {{z}}');
  });
});
