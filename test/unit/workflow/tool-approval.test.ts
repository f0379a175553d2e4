// Tools with side effects outside the overlay (MCP tools that write) follow the run's approval
// setting, wired from the WorkflowContext through the step actors and the agents to the adapter:
// diffs "never" runs them; otherwise a person is asked, and with nobody to ask they are refused.

import { strict as assert } from 'node:assert';
import { createActor, toPromise } from 'xstate';
import { z } from 'zod';
import type { AgentDefinition } from '../../../src/core/agents/loader';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import type { DiffApprovalPolicy } from '../../../src/core/model';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { submitPlanTool } from '../../../src/core/agents/planner/terminal-tool';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { ToolApprover } from '../../../src/core/workflow/tool-approval';
import { toolApprovalPolicy } from '../../../src/core/workflow/tool-approval';
import { TempWorkspace } from './orchestrator-harness';
import { planOutput, workflow } from './samples';

const planner: AgentDefinition = {
  name: 'planner',
  description: 'test planner',
  version: '1',
  requiredTools: ['publish', 'peek', 'submit_plan'],
  promptTemplate: 'prompt.md',
  llmConfig: { model: 'test-model', maxTokens: 1000 },
  toolConfig: {},
  prompt: 'Plan. Tools: {{tools}}',
  sourceDir: '/agents/planner',
  origin: 'bundled',
};

describe('tool approval through a run', () => {
  let ws: TempWorkspace;
  let published: unknown[];
  let peeks: number;
  beforeEach(() => {
    ws = new TempWorkspace();
    published = [];
    peeks = 0;
  });
  afterEach(() => ws.remove());

  const publish: ToolDefinition = {
    name: 'publish',
    description: 'Posts a message to the team channel',
    input: z.object({ text: z.string() }),
    readonly: false,
    externalEffects: true,
    timeoutMs: 1000,
    execute: async (input) => (published.push(input), { ok: true, content: 'posted' }),
  };
  const peek: ToolDefinition = {
    name: 'peek',
    description: 'Reads the channel',
    input: z.object({}),
    readonly: true,
    timeoutMs: 1000,
    execute: async () => (peeks++, { ok: true, content: 'nothing new' }),
  };

  /** Runs the real plan step: the model calls publish and peek, then submits a plan. Returns the tool results it saw. */
  async function planWith(diffs: DiffApprovalPolicy, askToolApproval?: ToolApprover): Promise<ToolResultBlock[]> {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('publish', { text: 'hello' }, 'call_publish'), toolUseBlock('peek', {}, 'call_peek')]),
      modelTurn([toolUseBlock('submit_plan', { spec: planOutput().spec, plan: planOutput().plan })]),
    ]);
    const tools = new ToolRegistry().register(publish).register(peek).register(submitPlanTool);
    const deps = { host: ws.host, model, tools, agents: new Map([['planner', planner]]), ...(askToolApproval ? { askToolApproval } : {}) };
    const actors = createStepActors(deps, null as never, () => ({ record: () => undefined }));
    const input = {
      stateId: 'run-7',
      workflow: workflow({ workspaceRoot: ws.dir, approval: { plan: 'always', diffs } }),
      request: 'Plan it',
      feedback: null,
      previousPlan: null,
      baseline: null,
    };
    await toPromise(createActor(actors.plan, { input }).start());
    const answer = model.requests[1].messages.at(-1);
    assert.ok(answer && Array.isArray(answer.content));
    return answer.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
  }

  it('derives the policy from the diff approval setting', () => {
    assert.equal(toolApprovalPolicy(workflow({ approval: { plan: 'always', diffs: 'never' } })), 'never');
    assert.equal(toolApprovalPolicy(workflow({ approval: { plan: 'never', diffs: 'first' } })), 'always');
    assert.equal(toolApprovalPolicy(workflow({ approval: { plan: 'never', diffs: 'always' } })), 'always');
  });

  it('diffs "never": the tool runs without asking', async () => {
    let asked = 0;
    const results = await planWith('never', async () => (asked++, { approved: false }));
    assert.deepEqual(published, [{ text: 'hello' }]);
    assert.equal(asked, 0);
    assert.equal(results[0].is_error, undefined);
  });

  it('diffs "always" and nobody to ask: refused as an is_error result saying a person must approve; read-only tools still run', async () => {
    const results = await planWith('always');
    assert.deepEqual(published, []);
    assert.equal(peeks, 1);
    const refused = results.find((r) => r.tool_use_id === 'call_publish');
    assert.ok(refused?.is_error);
    assert.match(refused.content, /publish .*a person must approve/);
    assert.equal(results.find((r) => r.tool_use_id === 'call_peek')?.is_error, undefined);
  });

  it('diffs "always" with an approver: it is asked (with the run id) and its answer is obeyed', async () => {
    const requests: Parameters<ToolApprover>[0][] = [];
    await planWith('first', async (request) => (requests.push(request), { approved: true }));
    assert.deepEqual(published, [{ text: 'hello' }]);
    assert.equal(requests.length, 1, 'only the tool with side effects is asked about');
    assert.equal(requests[0].runId, 'run-7');
    assert.equal(requests[0].tool, 'publish');
    assert.deepEqual(requests[0].input, { text: 'hello' });

    published = [];
    const results = await planWith('always', async () => ({ approved: false, reason: 'not on a Friday' }));
    assert.deepEqual(published, []);
    assert.match(results[0].content, /not approved: not on a Friday/);
  });
});
