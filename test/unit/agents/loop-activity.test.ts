// The live activity of the tool loop: the real planner with the real read-only tools and a
// scripted model reports, in order, each turn's start, its words, its end with its cost, and a
// human line per tool call; streamed words are sent at most ten times a second.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import type { ActivityReport } from '../../../src/core/activity';
import { LoopActivity } from '../../../src/core/agents/loop-activity';
import { runPlanner } from '../../../src/core/agents/planner/runner';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../../src/core/llm/scripted';
import { EMPTY_USAGE } from '../../../src/core/model';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from './agent-harness';

const PLAN = {
  spec: 'Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [{ number: 1, description: 'Use / in Divide', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' }],
    affectedFiles: [CALCULATOR_SOURCE],
    complexity: 'LOW',
  },
};

const spent = (inputTokens: number, outputTokens: number) => ({ ...EMPTY_USAGE, inputTokens, outputTokens });

describe('the tool loop reports its live activity', () => {
  let root: string;
  beforeEach(async () => (root = await copyCalculator()));
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  it("a planner that reads a file and searches: turns, words, tool lines and each call's cost, in order", async () => {
    const model = new ScriptedModelClient([
      modelTurn([textBlock('Let me look at Divide.'), toolUseBlock('read_file', { path: CALCULATOR_SOURCE, limit: 12 })], {
        usage: spent(500, 40),
      }),
      modelTurn([toolUseBlock('search_text', { query: 'Divide(', filePattern: '*.cs' })], { usage: spent(600, 30) }),
      modelTurn([toolUseBlock('submit_plan', PLAN)], { usage: spent(700, 90) }),
    ]);
    const events: ActivityReport[] = [];
    const rt = await agentRuntime(root, model);
    await runPlanner({ ...rt, activity: { emit: (event) => events.push(event) } }, { request: 'Fix Divide' });

    const details = events.flatMap((event) => (event.kind === 'tool' ? [event.detail] : []));
    assert.ok(
      details[0]?.startsWith(`Arguments:\n{\n  "path": "${CALCULATOR_SOURCE}",\n  "limit": 12\n}\n\nResult:\n`),
      `the read's arguments and answer: ${details[0]}`,
    );
    assert.match(details[0] ?? '', /public (static )?(int|double|decimal) Divide/);
    assert.equal(details[2]?.split('\n\nResult:\n')[0], `Arguments:\n${JSON.stringify(PLAN, null, 2)}`);
    const shown = events.map((event) => {
      if (event.kind === 'turn_end') return { ...event, durationMs: 0 };
      if (event.kind === 'tool') return { ...event, detail: undefined };
      return event;
    });
    assert.deepEqual(shown, [
      { kind: 'turn_start', agent: 'planner', turn: 1 },
      { kind: 'text', agent: 'planner', turn: 1, text: 'Let me look at Divide.' },
      { kind: 'turn_end', agent: 'planner', turn: 1, text: 'Let me look at Divide.', usage: spent(500, 40), durationMs: 0 },
      {
        kind: 'tool',
        agent: 'planner',
        turn: 1,
        tool: 'read_file',
        line: `read ${CALCULATOR_SOURCE} lines 1–12 of 20`,
        ok: true,
        detail: undefined,
      },
      { kind: 'turn_start', agent: 'planner', turn: 2 },
      { kind: 'turn_end', agent: 'planner', turn: 2, text: '', usage: spent(600, 30), durationMs: 0 },
      {
        kind: 'tool',
        agent: 'planner',
        turn: 2,
        tool: 'search_text',
        line: 'searched "Divide(" in *.cs — 3 matches',
        ok: true,
        detail: undefined,
      },
      { kind: 'turn_start', agent: 'planner', turn: 3 },
      { kind: 'turn_end', agent: 'planner', turn: 3, text: '', usage: spent(700, 90), durationMs: 0 },
      { kind: 'tool', agent: 'planner', turn: 3, tool: 'submit_plan', line: 'submitted the plan', ok: true, detail: undefined },
    ]);
  });

  it('without a listener the model is not asked to stream words', async () => {
    let onText: unknown = 'unset';
    const model = new ScriptedModelClient([
      (request) => {
        onText = request.onText;
        return modelTurn([toolUseBlock('submit_plan', PLAN)]);
      },
    ]);
    await runPlanner(await agentRuntime(root, model), { request: 'Fix Divide' });
    assert.equal(onText, undefined);
  });
});

describe('LoopActivity: streamed words at most ten times a second', () => {
  it("sends the first piece at once, joins the pieces of the next 100 ms into one event, and drops what the turn's end carries", async () => {
    const events: ActivityReport[] = [];
    let clock = 1000;
    const activity = new LoopActivity({ emit: (event) => events.push(event) }, 'coder', () => clock);
    const { onText } = activity.turnStarted(1);
    assert.ok(onText);
    onText('w0 ');
    clock = 1010;
    for (let i = 1; i < 50; i++) onText(`w${i} `);
    const texts = () => events.filter((event) => event.kind === 'text').map((event) => (event.kind === 'text' ? event.text : ''));
    assert.deepEqual(texts(), ['w0 ']);
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.deepEqual(texts(), ['w0 ', Array.from({ length: 49 }, (_, i) => `w${i + 1} `).join('')]);

    clock = 1050;
    onText('late ');
    onText('words');
    clock = 1070;
    activity.turnEnded(modelTurn('all the words'));
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(texts().length, 2, 'the held-back words are not sent after the turn ended');
    assert.deepEqual(events.at(-1), {
      kind: 'turn_end',
      agent: 'coder',
      turn: 1,
      text: 'all the words',
      usage: EMPTY_USAGE,
      durationMs: 70,
    });
  });
});
