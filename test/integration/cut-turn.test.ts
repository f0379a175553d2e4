// A turn cut at max_tokens, through the real SDKs: the fake servers stream a tool call whose
// arguments stop mid-string and end the answer with stop_reason max_tokens (Anthropic) or
// finish_reason "length" (OpenAI). The SDKs parse what arrived; the loop must run none of it.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runCoder } from '../../src/core/agents/coder/runner';
import { cutCallMessage, notRunMessage } from '../../src/core/agents/cut-turn';
import type { ExecutionPlan } from '../../src/core/model';
import { AnthropicModelClient } from '../../src/core/llm/providers/anthropic/anthropic';
import { OpenAIModelClient } from '../../src/core/llm/providers/openai/client';
import { StagedOverlay } from '../../src/core/workspace/overlay';
import { startFakeAnthropic, toolUse, turn } from '../support/fake-anthropic';
import { startFakeOpenAI } from '../support/fake-openai';
import type { FakeOpenAITurn } from '../support/fake-openai';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from '../unit/agents/agent-harness';

const EDITOR = 'str_replace_based_edit_tool';
const CODER_MAX_TOKENS = 16000;
const PLAN: ExecutionPlan = {
  summary: 'Fix Divide.',
  steps: [
    { number: 1, description: 'Return a / b in Divide', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' },
  ],
  affectedFiles: [CALCULATOR_SOURCE],
  complexity: 'LOW',
};
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
// A str_replace whose new_str was being written when the limit hit: valid JSON up to the cut.
const CUT_ARGS = `{"command":"str_replace","path":"${CALCULATOR_SOURCE}","old_str":"return a * b;","new_str":"return a / b; // and then`;
const CUT_CREATE = `{"command":"create","path":"src/Calculator/Extra.cs","file_text":"namespace Calculator;\\npublic static class Extra {\\n  // ...`;

describe('a turn cut at max_tokens runs none of its calls (real SDKs, fake servers)', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('Anthropic: stop_reason max_tokens with a partial tool_use reaches neither the overlay nor disk, and the model is told', async () => {
    const fake = await startFakeAnthropic();
    try {
      const rt = await agentRuntime(root, new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, logger: silent }));
      const overlay = new StagedOverlay(rt.host);
      let stagedAfterCut: string[] | null = null;
      fake.enqueue(
        turn(
          [
            {
              type: 'tool_use',
              id: 'toolu_create',
              name: EDITOR,
              input: {},
              partialJson: '{"command":"create","path":"src/Calculator/Notes.md","file_text":"notes"}',
            },
            { type: 'tool_use', id: 'toolu_cut', name: EDITOR, input: {}, partialJson: CUT_ARGS },
          ],
          { stopReason: 'max_tokens' },
        ),
        (request) => {
          stagedAfterCut = overlay.stagedPaths();
          const results = request.body.messages.at(-1)?.content as Array<Record<string, unknown>>;
          assert.deepEqual(
            results.map((block) => [block.tool_use_id, block.is_error, block.content]),
            [
              ['toolu_create', true, notRunMessage(CODER_MAX_TOKENS)],
              ['toolu_cut', true, cutCallMessage(CODER_MAX_TOKENS)],
            ],
          );
          return toolUse(EDITOR, { command: 'str_replace', path: CALCULATOR_SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' });
        },
        toolUse('submit_changes', { summary: 'Divide divides.' }),
      );
      const result = await runCoder(rt, { request: 'Fix Divide', spec: 's', plan: PLAN, errorContext: null, iteration: 1, overlay });

      assert.deepEqual(stagedAfterCut, [], 'nothing of the cut turn was staged');
      assert.equal(fake.requests.length, 3);
      assert.deepEqual(
        result.edits.map((edit) => edit.filePath),
        [CALCULATOR_SOURCE],
      );
      assert.doesNotMatch(result.edits[0].newContent ?? '', /and then/);
      assert.match(await fs.readFile(path.join(root, CALCULATOR_SOURCE), 'utf8'), /return a \* b;/, 'nothing reaches disk');
      const cutTrace = rt.events.find((event) => event.kind === 'model_call' && event.stopReason === 'max_tokens');
      assert.ok(cutTrace, 'the cut is on the trace');
    } finally {
      await fake.close();
    }
  });

  it('OpenAI: finish_reason "length" with partial tool-call arguments runs nothing, and the model is told', async () => {
    const fake = await startFakeOpenAI();
    try {
      const cutTurn: FakeOpenAITurn = {
        kind: 'turn',
        toolCalls: [{ id: 'call_cut', name: EDITOR, arguments: CUT_CREATE }],
        finishReason: 'length',
      };
      let stagedAfterCut: string[] | null = null;
      const rt = await agentRuntime(root, new OpenAIModelClient({ apiKey: 'sk-local', baseURL: fake.url, logger: silent }));
      const overlay = new StagedOverlay(rt.host);
      fake.enqueue(
        cutTurn,
        (request) => {
          stagedAfterCut = overlay.stagedPaths();
          const toolMessage = request.body.messages.find((message) => message.role === 'tool');
          assert.deepEqual(toolMessage, { role: 'tool', tool_call_id: 'call_cut', content: `Error: ${cutCallMessage(CODER_MAX_TOKENS)}` });
          return {
            kind: 'turn',
            toolCalls: [
              {
                name: EDITOR,
                arguments: { command: 'str_replace', path: CALCULATOR_SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' },
              },
            ],
          };
        },
        { kind: 'turn', toolCalls: [{ name: 'submit_changes', arguments: { summary: 'Divide divides.' } }] },
      );
      const result = await runCoder(rt, { request: 'Fix Divide', spec: 's', plan: PLAN, errorContext: null, iteration: 1, overlay });
      assert.deepEqual(stagedAfterCut, []);
      assert.deepEqual(
        result.edits.map((edit) => edit.filePath),
        [CALCULATOR_SOURCE],
      );
      assert.equal(await fs.stat(path.join(root, 'src/Calculator/Extra.cs')).catch(() => null), null, 'the cut create reached no disk');
      assert.ok(
        rt.events.some((event) => event.kind === 'model_call' && event.stopReason === 'max_tokens'),
        'length is mapped to max_tokens',
      );
    } finally {
      await fake.close();
    }
  });
});
