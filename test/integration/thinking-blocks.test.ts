// Extended thinking through the real Anthropic SDK: the thinking and redacted_thinking blocks of a
// tool-use answer go back unchanged, in their place, in the next request (the API refuses a
// tool-use turn whose thinking was dropped or changed).

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { runPlanner } from '../../src/core/agents/planner/runner';
import { AnthropicModelClient } from '../../src/core/llm/providers/anthropic/anthropic';
import { startFakeAnthropic, toolUse, turn } from '../support/fake-anthropic';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from '../unit/agents/agent-harness';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const PLAN = {
  spec: 'Divide returns a / b.',
  plan: {
    summary: 'Fix Divide',
    steps: [{ number: 1, description: 'Use /', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'r' }],
    complexity: 'LOW',
  },
};

describe('thinking blocks are kept across turns (real SDK, fake Messages API)', function () {
  this.timeout(60_000);

  it('passes thinking and redacted_thinking back unchanged before the tool_use they preceded', async () => {
    const root = await copyCalculator();
    const fake = await startFakeAnthropic();
    try {
      const thinking = {
        type: 'thinking' as const,
        thinking: 'The test divides 6 by 3 and expects 2, so Divide must use /.',
        signature: 'sig-EqQBCkgIARABGAIiQL',
      };
      const redacted = { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' };
      const read = { type: 'tool_use' as const, id: 'toolu_read', name: 'read_file', input: { path: CALCULATOR_SOURCE } };
      fake.enqueue(turn([thinking, redacted, read]), toolUse('submit_plan', PLAN));
      const rt = await agentRuntime(root, new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, logger: silent }));
      await runPlanner(rt, { request: 'Fix Divide' });
      const assistant = fake.requests[1].body.messages[1];
      assert.equal(assistant.role, 'assistant');
      assert.deepEqual(assistant.content, [thinking, redacted, read]);
    } finally {
      await fake.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
