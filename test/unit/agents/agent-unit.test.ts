// An agent is one unit (CONTRIBUTING.md, "Add an agent"): a toy code critic is added (the bundled reviewer aside) with its
// agent.yaml + prompt (here as a workspace agent), and one unit (runner + terminal tool) registered
// in an AgentRegistry: the tool catalog, the loader and the tool-use loop pick it up with no other
// change. And the workflow's PLAN step runs whatever unit is registered as the planner.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { builtinAgentRegistry, createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import { requireAgent } from '../../../src/core/agents/agent-definition';
import { loadAgents } from '../../../src/core/agents/loader';
import { runToolLoop } from '../../../src/core/agents/tool-loop';
import type { AgentRuntime } from '../../../src/core/agents/types';
import { AgentRegistry } from '../../../src/core/agents/unit';
import type { AgentUnit } from '../../../src/core/agents/unit';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import { saveBaselineResults } from '../../../src/core/workflow/validation-results';
import type { Baseline } from '../../../src/core/model';
import type { BaselineInput } from '../../../src/core/workflow/run-context';
import { fromPromise } from 'xstate';
import { FakeSteps } from '../workflow/fake-steps';
import { StateStream, TempWorkspace } from '../workflow/orchestrator-harness';
import { baseline, planOutput, workflow } from '../workflow/samples';
import { CALCULATOR_SOURCE, REPO_ROOT, agentRuntime, copyCalculator } from './agent-harness';
import { demoAnswer } from '../../../src/core/llm/providers/demo/demo-model';
import { bundledAgentNames } from '../../support/tables';

// ---- the toy agent: what a contributor writes in src/core/agents/critic/runner.ts ----
const reviewInput = z.object({
  verdict: z.enum(['approve', 'request_changes']),
  comments: z.array(z.string()),
});
type Review = z.infer<typeof reviewInput>;

const submitReviewTool: ToolDefinition<Review> = {
  name: 'submit_critique',
  description: 'Submit the review. This ends your turn.',
  input: reviewInput,
  readonly: true,
  timeoutMs: 5_000,
  execute: async () => ({ ok: true, content: 'Review received.' }),
};

const reviewerAgent: AgentUnit<{ file: string }, Review> = {
  name: 'critic',
  terminalTool: submitReviewTool,
  async run(rt: AgentRuntime, input) {
    const result = await runToolLoop({
      agent: requireAgent(rt.agents, 'critic'),
      runtime: rt,
      toolContext: { host: rt.host, overlay: new StagedOverlay(rt.host), signal: rt.signal },
      userMessage: `Review ${input.file}, then call submit_critique.`,
      terminal: { name: submitReviewTool.name, accept: (raw) => ({ ok: true, value: raw as Review }) },
    });
    return result.value;
  },
};
// ---- and in agents/critic/agent.yaml + prompt.md:
const REVIEWER_YAML = [
  'name: critic',
  'description: Reviews a file and submits a verdict.',
  'version: 1.0.0',
  'requiredTools:',
  '  - read_file',
  '  - submit_critique',
  'promptTemplate: prompt.md',
  'llmConfig:',
  '  model: claude-sonnet-4-6',
  '  maxTokens: 1024',
  'toolConfig:',
  '  turnBudget: 4',
].join('\n');
const REVIEWER_PROMPT = 'You review C# code. Tools: {{tools}}. End with {{terminalTool}} within {{turnBudget}} turns.';

async function writeReviewer(root: string, yaml = REVIEWER_YAML): Promise<void> {
  const dir = path.join(root, '.ironbees', 'agents', 'critic');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'agent.yaml'), yaml);
  await fs.writeFile(path.join(dir, 'prompt.md'), REVIEWER_PROMPT);
}

describe('an agent as one unit', () => {
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('a toy reviewer registered through the registry runs with its terminal tool and the scripted model', async () => {
    await writeReviewer(root);
    const units = builtinAgentRegistry().register(reviewerAgent);
    const tools = createDefaultToolRegistry(units);
    const builtinTerminals = builtinAgentRegistry()
      .terminalTools()
      .map((tool) => tool.name);
    assert.deepEqual(
      tools.names().filter((name) => name.startsWith('submit_')),
      [...builtinTerminals, 'submit_critique'].sort(),
    );
    const agents = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: root, knownTools: tools.names(), units });
    assert.deepEqual([...agents.keys()].sort(), [...bundledAgentNames(), 'critic'].sort());

    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('read_file', { path: CALCULATOR_SOURCE }, 'r1')]),
      modelTurn([toolUseBlock('submit_critique', { verdict: 'request_changes', comments: ['Divide multiplies'] }, 's1')]),
    ]);
    const rt = { ...(await agentRuntime(root, model)), tools, agents };
    const review = await units.require<{ file: string }, Review>('critic').run(rt, { file: CALCULATOR_SOURCE });

    assert.deepEqual(review, { verdict: 'request_changes', comments: ['Divide multiplies'] });
    assert.equal(model.requests.length, 2);
    const first = model.requests[0];
    assert.deepEqual(
      first.tools.map((tool) => tool.name),
      ['read_file', 'submit_critique'],
    );
    assert.equal(first.system, 'You review C# code. Tools: read_file, submit_critique. End with submit_critique within 4 turns.');
    assert.equal(first.messages[0].content, `Review ${CALCULATOR_SOURCE}, then call submit_critique.`);
    const answered = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.equal(answered[0].tool_use_id, 'r1');
    assert.equal(answered[0].is_error, undefined);
    assert.match(
      String(answered[0].content),
      /^src\/Calculator\/Calculator\.cs \(lines 1-20 of 20\)\n.*\n {4}11\t {4}public static int Divide\(int a, int b\)\n/s,
    );
  });

  it('the demo model drives the toy reviewer to its terminal tool, with the least answer the tool accepts', async () => {
    await writeReviewer(root);
    const units = builtinAgentRegistry().register(reviewerAgent);
    const tools = createDefaultToolRegistry(units);
    const agents = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: root, knownTools: tools.names(), units });
    const model = new ScriptedModelClient((request) => demoAnswer(request));
    const rt = { ...(await agentRuntime(root, model)), tools, agents };
    const review = await units.require<{ file: string }, Review>('critic').run(rt, { file: CALCULATOR_SOURCE });
    assert.deepEqual(review, { verdict: 'approve', comments: [] });
    assert.equal(model.requests.length, 1);
  });

  it('the loader holds a registered agent to its terminal tool, named by its unit', async () => {
    await writeReviewer(root, REVIEWER_YAML.replace('  - submit_critique\n', ''));
    const units = builtinAgentRegistry().register(reviewerAgent);
    const tools = createDefaultToolRegistry(units);
    await assert.rejects(
      loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: root, knownTools: tools.names(), units }),
      {
        message:
          '.ironbees/agents/critic/agent.yaml: requiredTools: must include submit_critique: the critic ends its turn with it, so without it the critic step can never finish',
      },
    );
    // Without its unit, the same folder is a plain agent the loader has no terminal tool for.
    const plain = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: root, knownTools: tools.names() });
    assert.deepEqual(plain.get('critic')?.requiredTools, ['read_file']);
  });

  it('asking for an agent no unit is registered as names the registered ones', () => {
    assert.throws(() => new AgentRegistry([reviewerAgent]).require('planner'), {
      message: 'No agent runner registered as "planner"; registered: critic',
    });
  });
});

describe('the PLAN step finds its agent through the registry', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.remove());

  it('runs the unit registered as the planner, with the request it was given', async () => {
    const seen: unknown[] = [];
    const standIn: AgentUnit<{ request: string }, ReturnType<typeof planOutput>> = {
      name: 'planner',
      terminalTool: submitReviewTool,
      run: async (_rt, input) => {
        seen.push(input.request);
        return planOutput('From the stand-in');
      },
    };
    const deps = {
      host: ws.host,
      model: new ScriptedModelClient([]),
      agents: new Map(),
      tools: createDefaultToolRegistry(),
      agentUnits: builtinAgentRegistry().register(standIn),
    };
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
    const orchestrator = new RunOrchestrator(ws.host, (store, traceFor) => ({
      ...steps.actors(),
      plan: createStepActors(deps, store, traceFor).plan,
    }));
    const controller = new AbortController();
    const stream = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal));
    try {
      const atGate = await stream.until('WAIT_PLAN_APPROVAL');
      assert.deepEqual(seen, ['Fix Add']);
      assert.deepEqual(atGate.plan, planOutput('From the stand-in').plan);
      assert.equal(atGate.spec, 'Spec: From the stand-in');
    } finally {
      controller.abort();
      await stream.close();
    }
  });
});

describe('the PLAN step gives the planner the whole baseline', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.remove());

  it('every failing test, read back from the results file, not the first ones the state keeps', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Suite.Tests.Case${i + 1}`);
    const full = baseline();
    full.test = {
      success: false,
      total: 40,
      passed: 10,
      failed: 30,
      skipped: 0,
      failures: names.map((testName) => ({ testName, message: 'm', stackTrace: '' })),
      durationMs: 1,
    };
    const seen: string[][] = [];
    const standIn: AgentUnit<
      { baseline?: { test: { failures: Array<{ testName: string }> } | null } | null },
      ReturnType<typeof planOutput>
    > = {
      name: 'planner',
      terminalTool: submitReviewTool,
      run: async (_rt, input) => {
        seen.push(input.baseline?.test?.failures.map((failure) => failure.testName) ?? []);
        return planOutput('From the stand-in');
      },
    };
    const deps = {
      host: ws.host,
      model: new ScriptedModelClient([]),
      agents: new Map(),
      tools: createDefaultToolRegistry(),
      agentUnits: builtinAgentRegistry().register(standIn),
    };
    const steps = new FakeSteps();
    const orchestrator = new RunOrchestrator(ws.host, (store, traceFor) => ({
      ...steps.actors(),
      captureBaseline: fromPromise<Baseline, BaselineInput>(({ input }) => saveBaselineResults(ws.host, store, input.stateId, full)),
      plan: createStepActors(deps, store, traceFor).plan,
    }));
    const controller = new AbortController();
    const stream = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal));
    try {
      const atGate = await stream.until('WAIT_PLAN_APPROVAL');
      assert.ok((atGate.baseline?.test?.failures.length ?? 0) < 30, 'the state keeps only the first failures');
      assert.deepEqual(seen, [names]);
    } finally {
      controller.abort();
      await stream.close();
    }
  });
});
