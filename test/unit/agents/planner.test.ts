import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { MAX_PLAN_STEPS, acceptPlan, plannerMessage, runPlanner, summariseBaseline } from '../../../src/core/agents/planner/runner';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import type { Baseline, ExecutionPlan } from '../../../src/core/model';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from './agent-harness';

const BASELINE: Baseline = {
  build: { success: true, errors: [], warnings: [], durationMs: 1000 },
  test: {
    success: false,
    total: 7,
    passed: 6,
    failed: 1,
    skipped: 0,
    failures: [
      {
        testName: 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient',
        message: 'Assert.Equal() Failure\nExpected: 2\nActual: 18',
        stackTrace: '',
      },
    ],
    durationMs: 2000,
  },
  capturedAt: '2025-01-01T00:00:00.000Z',
};

const PLAN_INPUT = {
  spec: 'Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [
      { number: 3, description: 'Use / in Divide', actionType: 'modify', filePath: `./${CALCULATOR_SOURCE}`, rationale: 'It multiplies' },
    ],
    affectedFiles: [],
    complexity: 'low',
  },
};

describe('runPlanner', () => {
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('explores with read-only tools, then returns the normalised plan and the usage', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('read_file', { path: CALCULATOR_SOURCE }, 'r1')], { usage: { inputTokens: 500, outputTokens: 40 } }),
      modelTurn([toolUseBlock('submit_plan', PLAN_INPUT)], { usage: { inputTokens: 700, outputTokens: 90 } }),
    ]);
    const rt = await agentRuntime(root, model);
    const result = await runPlanner(rt, { request: 'Fix the failing Divide test', baseline: BASELINE });

    assert.equal(result.spec, 'Divide returns a / b.');
    assert.deepEqual(result.plan.steps, [
      { number: 1, description: 'Use / in Divide', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' },
    ]);
    assert.deepEqual(result.plan.affectedFiles, [CALCULATOR_SOURCE]);
    assert.equal(result.plan.complexity, 'LOW');
    assert.equal(result.usage.inputTokens, 1200);
    assert.equal(result.usage.outputTokens, 130);

    const first = model.requests[0];
    assert.deepEqual(
      first.tools.map((tool) => tool.name),
      ['read_file', 'list_files', 'search_text', 'find_symbols', 'find_references', 'submit_plan'],
    );
    assert.equal(first.model, 'claude-sonnet-4-6');
    assert.match(first.system, /You have 25 turns at most/);
    const userMessage = String(first.messages[0].content);
    assert.match(userMessage, /# Request\n\nFix the failing Divide test/);
    assert.match(
      userMessage,
      /Tests: 1 of 7 failing before any change \(every name, exactly as knownFailures takes it\):\n {2}- Calculator\.Tests\.CalcTests\.Divide_ReturnsQuotient: Assert\.Equal\(\) Failure/,
    );

    const result1 = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.match(result1[0].content, /return a \* b;/, 'the real read_file tool read the workspace');
    assert.deepEqual(
      rt.events.filter((event) => event.kind === 'tool_call').map((event) => event.kind === 'tool_call' && `${event.tool}:${event.ok}`),
      ['read_file:true', 'submit_plan:true'],
    );
    assert.ok(
      rt.events.filter((event) => event.kind === 'model_call').every((event) => event.kind === 'model_call' && event.agent === 'planner'),
    );
  });

  it('refuses a plan with paths outside the workspace and accepts the corrected one', async () => {
    const outside = structuredClone(PLAN_INPUT);
    outside.plan.steps[0].filePath = '../elsewhere/Calculator.cs';
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('submit_plan', outside, 'p1')]),
      modelTurn([toolUseBlock('submit_plan', PLAN_INPUT)]),
    ]);
    const result = await runPlanner(await agentRuntime(root, model), { request: 'Fix Divide' });
    assert.equal(result.plan.steps[0].filePath, CALCULATOR_SOURCE);
    const [refusal] = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.equal(refusal.is_error, true);
    assert.match(refusal.content, /not workspace-relative: \.\.\/elsewhere\/Calculator\.cs/);
  });

  it('refuses knownFailures that are not baseline failures, with the nearest names, and accepts the exact ones', async () => {
    const names = ['Suite.MathTests.Divide_ByZero_Throws', 'Suite.MathTests.Add_Overflows', 'Suite.TextTests.Trim_KeepsInnerSpaces'];
    const baseline: Baseline = {
      ...BASELINE,
      test: { ...BASELINE.test!, failed: 3, failures: names.map((testName) => ({ testName, message: 'boom', stackTrace: '' })) },
    };
    const guessed = structuredClone(PLAN_INPUT) as typeof PLAN_INPUT & { plan: { knownFailures?: string[] } };
    guessed.plan.knownFailures = ['Divide_ByZero_Throws', 'Suite.TextTests.Trim_KeepsInnerSpaces', 'Nothing.Like.It'];
    const exact = structuredClone(guessed);
    exact.plan.knownFailures = [names[0], names[2]];
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('submit_plan', guessed, 'p1')]),
      modelTurn([toolUseBlock('submit_plan', exact)]),
    ]);
    const result = await runPlanner(await agentRuntime(root, model), { request: 'Fix Divide', baseline });
    assert.deepEqual(result.plan.knownFailures, [names[0], names[2]]);
    const [refusal] = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.equal(refusal.is_error, true);
    assert.equal(
      refusal.content,
      [
        'plan.knownFailures must name failing baseline tests exactly (as listed in the request); these are not among them:',
        '- "Divide_ByZero_Throws": did you mean "Suite.MathTests.Divide_ByZero_Throws"?',
        '- "Nothing.Like.It"',
        'Correct the names (or leave them out) and call submit_plan again.',
      ].join('\n'),
    );
  });

  it('refuses a plan of more steps than one coder attempt can carry out', () => {
    const step = { number: 1, description: 'd', actionType: 'MODIFY' as const, filePath: 'a.cs', rationale: '' };
    const plan = (count: number): ExecutionPlan => ({
      summary: 's',
      steps: Array.from({ length: count }, (_, i) => ({ ...step, number: i + 1 })),
      affectedFiles: [],
      complexity: 'HIGH',
    });
    assert.equal(MAX_PLAN_STEPS, 20);
    assert.equal(acceptPlan({ spec: 's', plan: plan(20) }).ok, true);
    assert.deepEqual(acceptPlan({ spec: 's', plan: plan(21) }), {
      ok: false,
      error:
        'plan.steps has 21 steps; a plan has at most 20. Merge the steps on one file into one, or plan a smaller first change the person can follow up.',
    });
  });

  it('lists every failing baseline test by name, the first ten with their message', () => {
    const failures = Array.from({ length: 60 }, (_, i) => ({
      testName: `Suite.Tests.Case${i + 1}`,
      message: `m${i + 1}\nmore`,
      stackTrace: '',
    }));
    const text = summariseBaseline({ ...BASELINE, test: { ...BASELINE.test!, total: 100, failed: 62, failures } });
    const listed = text.split('\n').filter((line) => line.startsWith('  - '));
    assert.equal(listed.length, 61);
    assert.equal(listed[0], '  - Suite.Tests.Case1: m1');
    assert.equal(listed[9], '  - Suite.Tests.Case10: m10');
    assert.equal(listed[10], '  - Suite.Tests.Case11');
    assert.equal(listed[59], '  - Suite.Tests.Case60');
    assert.equal(listed[60], '  - (2 more failing test(s) whose names were not kept)');
    assert.doesNotMatch(text, /… and/);
  });

  it('cannot change the workspace even when it tries', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('str_replace_based_edit_tool', { command: 'create', path: 'evil.cs', file_text: 'x' }, 'e1')]),
      modelTurn([toolUseBlock('submit_plan', PLAN_INPUT)]),
    ]);
    await runPlanner(await agentRuntime(root, model), { request: 'Fix Divide' });
    const [refused] = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.equal(refused.is_error, true);
    assert.match(refused.content, /Unknown tool "str_replace_based_edit_tool"/);
    await assert.rejects(fs.access(`${root}/evil.cs`));
  });

  it('puts the feedback and the previous plan into the message when replanning', () => {
    const previousPlan: ExecutionPlan = {
      summary: 'Rewrite everything',
      steps: [{ number: 1, description: 'Rewrite', actionType: 'REFACTOR', filePath: 'a.cs', rationale: '' }],
      affectedFiles: ['a.cs'],
      complexity: 'HIGH',
    };
    const message = plannerMessage({ request: 'Fix Divide', feedback: 'Too big; only touch Divide.', previousPlan });
    assert.match(message, /# Your previous plan\n\n```json\n\{\n {2}"summary": "Rewrite everything"/);
    assert.match(message, /rejected the previous plan, saying\n\nToo big; only touch Divide\./);
    assert.doesNotMatch(message, /baseline/);
  });

  it('summarises a failing baseline build and says nothing is pre-existing for a clean one', () => {
    const broken = summariseBaseline({
      build: {
        success: false,
        errors: [{ code: 'CS0103', message: "The name 'x' does not exist", filePath: 'src/A.cs', line: 3, column: 9 }],
        warnings: [],
        durationMs: 1,
      },
      test: null,
      capturedAt: '',
    });
    assert.match(broken, /Build: failed with 1 error\(s\) before any change:\n {2}- src\/A\.cs\(3,9\): CS0103 The name 'x' does not exist/);
    assert.match(broken, /pre-existing/);
    const clean = summariseBaseline({ ...BASELINE, test: { ...BASELINE.test!, failed: 0, passed: 7, failures: [], success: true } });
    assert.match(clean, /Tests: 7 passed, 0 skipped, none failing\./);
    assert.doesNotMatch(clean, /pre-existing/);
  });
});
