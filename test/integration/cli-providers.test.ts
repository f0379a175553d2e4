// The real CLI, end to end, on each provider: the same scripted run on the calculator fixture
// reaches SUCCESS against a local OpenAI-compatible server (no Anthropic credentials, no OpenAI key)
// and against the fake Anthropic Messages API. Real dotnet, the real SDKs.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeOpenAI, chatToolCall } from '../support/fake-openai';
import type { FakeOpenAI } from '../support/fake-openai';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli, traceEvents } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b; Divide_ReturnsQuotient passes and no other test breaks.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [
      {
        number: 1,
        description: 'Return a / b instead of a * b',
        actionType: 'MODIFY',
        filePath: SOURCE,
        rationale: 'The test expects 6 / 3 = 2',
      },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};
const EDIT = { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' };
const AGENTS_MD = '# Team rules\nAlways keep the public API of Calc unchanged. (marker: agents-md-7731)\n';
/** No key of either provider reaches the CLI from the machine running the tests. */
const NO_CREDENTIALS = { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

describe('ironbees CLI on each provider (real dotnet, real SDKs, local fake servers)', function () {
  this.timeout(420_000);
  let workspace: string;
  before(() => ensureCliBuilt());
  beforeEach(() => {
    workspace = copyFixture('calculator');
  });
  afterEach(() => removeDir(workspace));

  describe('OpenAI-compatible', () => {
    let fake: FakeOpenAI;
    beforeEach(async () => {
      fake = await startFakeOpenAI();
    });
    afterEach(() => fake.close());

    it('--provider openai against a local server without a key: plans, edits with the editor function, SUCCESS; AGENTS.md in both system prompts', async () => {
      writeFileSync(path.join(workspace, 'AGENTS.md'), AGENTS_MD);
      fake.enqueue(
        chatToolCall('read_file', { path: SOURCE }, { usage: { prompt_tokens: 900, completion_tokens: 30, cached_tokens: 0 } }),
        chatToolCall('submit_plan', PLAN, { usage: { prompt_tokens: 1100, completion_tokens: 120, cached_tokens: 800 } }),
        chatToolCall('str_replace_based_edit_tool', EDIT),
        chatToolCall('submit_changes', { summary: 'Divide now divides.' }),
      );
      const env = { ...NO_CREDENTIALS, OPENAI_BASE_URL: fake.url };
      const result = await runCli(
        [
          'run',
          'Fix the failing Calculator test',
          '--workspace',
          workspace,
          '--provider',
          'openai',
          '--model',
          'qwen2.5-coder:7b',
          '--yes',
          '--json',
        ],
        env,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(fake.pending, 0, 'every scripted answer was used');
      const final = result.states.at(-1) as (typeof result.states)[number] & { usage: Record<string, unknown> };
      assert.equal(final.currentNode, 'SUCCESS');
      assert.equal(final.iterationCount, 1);
      assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
      assert.deepEqual(final.usage, {
        inputTokens: 1200 + 20,
        outputTokens: 150 + 10,
        cacheReadTokens: 800,
        cacheWriteTokens: 0,
        costUsd: 0,
        costUnknown: true,
      });
      assert.match(result.stderr, /cost unknown/);

      assert.ok(fake.requests.every((r) => r.body.model === 'qwen2.5-coder:7b'));
      assert.equal(fake.requests[0].headers.authorization, 'Bearer no-key', 'a stand-in key, only for the chosen base URL');
      const systemOf = (toolName: string): string[] =>
        fake.requests.filter((r) => r.body.tools?.some((t) => t.function.name === toolName)).map((r) => String(r.body.messages[0].content));
      assert.equal(systemOf('submit_plan').length, 2);
      assert.equal(systemOf('submit_changes').length, 2);
      for (const system of [...systemOf('submit_plan'), ...systemOf('submit_changes')]) assert.match(system, /marker: agents-md-7731/);
      const metadata = final.metadata as { instructionsRead?: unknown };
      assert.deepEqual(
        metadata.instructionsRead,
        [{ path: 'AGENTS.md', chars: AGENTS_MD.trim().length, truncated: false }],
        'the state records what was read',
      );

      const calls = traceEvents(workspace, final.stateId).filter((e) => e.kind === 'model_call');
      // The planner's and the coder's calls, then the reviewer's (the fake passes it by default): traced like any agent's.
      assert.deepEqual(
        calls.map((e) => e.model),
        ['qwen2.5-coder:7b', 'qwen2.5-coder:7b', 'qwen2.5-coder:7b', 'qwen2.5-coder:7b', 'qwen2.5-coder:7b'],
      );
      assert.match(readRunFile(workspace, final.stateId, 'HANDOFF.md'), /cost unknown/);
    });

    it('--provider openai --model gpt-5-mini completes against a server that refuses its unsupported parameters (temperature 0 in agent.yaml)', async () => {
      fake.enqueue(
        chatToolCall('submit_plan', PLAN),
        chatToolCall('str_replace_based_edit_tool', EDIT),
        chatToolCall('submit_changes', { summary: 'Divide now divides.' }),
      );
      const env = { ...NO_CREDENTIALS, OPENAI_BASE_URL: fake.url };
      const result = await runCli(
        [
          'run',
          'Fix the failing Calculator test',
          '--workspace',
          workspace,
          '--provider',
          'openai',
          '--model',
          'gpt-5-mini',
          '--yes',
          '--json',
        ],
        env,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.states.at(-1)?.currentNode, 'SUCCESS');
      assert.equal(fake.pending, 0);
      assert.equal(fake.requests.length, 3, 'no call was refused');
      for (const request of fake.requests) {
        assert.equal(request.body.model, 'gpt-5-mini');
        assert.equal(request.body.temperature, undefined);
        assert.equal(request.body.max_tokens, undefined);
        assert.equal(typeof request.body.max_completion_tokens, 'number');
      }
      assert.match(result.stderr, /gpt-5-mini takes only its default temperature; the configured temperature 0 is not sent\./);
      assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    });

    it('--provider openai without --model stops before anything runs (exit 2), naming the agent and the way out', async () => {
      const result = await runCli(['run', 'Fix it', '--workspace', workspace, '--provider', 'openai', '--yes'], {
        ...NO_CREDENTIALS,
        OPENAI_BASE_URL: fake.url,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /The run uses provider "openai" but agent "(planner|coder)" names the anthropic model \(claude-sonnet-4-6\): give the model with --model/,
      );
      assert.equal(fake.requests.length, 0);
    });
  });

  it('--max-cost stops the run before it codes: exit 3 with --yes, the budget named in the state and HANDOFF.md, files untouched', async () => {
    const original = readFileSync(path.join(workspace, SOURCE));
    const fake = await startFakeAnthropic();
    try {
      // claude-sonnet-4-6 at $15 per million output tokens: 10,000 of them cost $0.15.
      fake.enqueue(
        toolUse('read_file', { path: SOURCE }, { usage: { input_tokens: 10, output_tokens: 10_000 } }),
        toolUse('submit_plan', PLAN),
      );
      const result = await runCli(
        ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--max-cost', '0.05', '--yes', '--json'],
        { ...NO_CREDENTIALS, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url },
      );
      assert.equal(result.code, 3, result.stderr);
      assert.equal(fake.requests.length, 1, 'no model call after the one that reached the budget');
      const nodes = result.states.map((s) => s.currentNode);
      assert.ok(!nodes.includes('CODE'), `never codes: ${nodes.join(' → ')}`);
      const final = result.states.at(-1) as (typeof result.states)[number] & {
        metadata: { helpRequest?: { budget?: Record<string, unknown> } };
      };
      assert.equal(final.currentNode, 'WAIT_HUMAN');
      assert.deepEqual(final.metadata.helpRequest?.budget, {
        budget: 'maxCostUsd',
        flag: '--max-cost',
        limit: 0.05,
        spent: 0.15003,
        message: 'Budget reached: --max-cost $0.05 (spent $0.1500).',
      });
      assert.match(
        readRunFile(workspace, final.stateId, 'HANDOFF.md'),
        /Budget reached: --max-cost \$0\.05 \(spent \$0\.1500\)\. The run stopped during PLAN/,
      );
      assert.deepEqual(readFileSync(path.join(workspace, SOURCE)), original, 'the workspace files are untouched');
    } finally {
      await fake.close();
    }
  });

  it('the same run against the fake Anthropic API reaches SUCCESS', async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.enqueue(
        toolUse('read_file', { path: SOURCE }),
        toolUse('submit_plan', PLAN),
        toolUse('str_replace_based_edit_tool', EDIT),
        toolUse('submit_changes', { summary: 'Divide now divides.' }),
      );
      const result = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json'], {
        ...NO_CREDENTIALS,
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: fake.url,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(fake.pending, 0);
      assert.equal(result.states.at(-1)?.currentNode, 'SUCCESS');
      assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    } finally {
      await fake.close();
    }
  });
});
