import * as assert from 'node:assert/strict';
import type { ExecutionPlan } from '../../../src/core/model';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { submitChangesTool } from '../../../src/core/agents/coder/terminal-tool';
import { executionPlanSchema, submitPlanInput, submitPlanTool } from '../../../src/core/agents/planner/terminal-tool';
import { bare, memoryHost, toolContext } from './memory-host';

const plan = {
  summary: 'Fix Add',
  steps: [{ number: 1, description: 'Use +', actionType: 'MODIFY', filePath: 'src/Calculator.cs', rationale: 'Add subtracts' }],
  affectedFiles: ['src/Calculator.cs'],
  complexity: 'LOW',
};

describe('submit tools', () => {
  it('accepts the contract plan shape as is', () => {
    const parsed: ExecutionPlan = executionPlanSchema.parse(plan);
    assert.deepEqual(parsed, plan);
  });

  it('keeps knownFailures when given, drops an empty or null list', () => {
    assert.deepEqual(executionPlanSchema.parse({ ...plan, knownFailures: ['A.B.C'] }).knownFailures, ['A.B.C']);
    assert.deepEqual(executionPlanSchema.parse({ ...plan, knownFailures: '["A.B.C"]' }).knownFailures, ['A.B.C']);
    assert.equal('knownFailures' in executionPlanSchema.parse({ ...plan, knownFailures: null }), false);
    assert.equal('knownFailures' in executionPlanSchema.parse({ ...plan, knownFailures: [] }), false);
    assert.equal(executionPlanSchema.safeParse({ ...plan, knownFailures: [''] }).success, false);
  });

  it('is lenient where it cannot change meaning', () => {
    const parsed = executionPlanSchema.parse(
      JSON.stringify({
        summary: 'Fix Add',
        steps: JSON.stringify([
          { number: '1', description: 'Use +', actionType: 'modify', filePath: 'src/Calculator.cs' },
          { number: 2, description: 'Test it', actionType: ' Create ', filePath: 'tests/AddTests.cs', rationale: null },
        ]),
        complexity: 'low',
      }),
    );
    assert.deepEqual(parsed, {
      summary: 'Fix Add',
      steps: [
        { number: 1, description: 'Use +', actionType: 'MODIFY', filePath: 'src/Calculator.cs', rationale: '' },
        { number: 2, description: 'Test it', actionType: 'CREATE', filePath: 'tests/AddTests.cs', rationale: '' },
      ],
      affectedFiles: ['src/Calculator.cs', 'tests/AddTests.cs'],
      complexity: 'LOW',
    });
  });

  it('refuses what would change meaning, naming the field', async () => {
    const registry = new ToolRegistry().register(submitPlanTool);
    const ctx = toolContext(memoryHost());
    const outcome = await registry.execute(
      submitPlanTool,
      { spec: 'x', plan: { ...plan, steps: [{ ...plan.steps[0], actionType: 'RENAME' }], complexity: 'HUGE' } },
      ctx,
    );
    assert.ok(!outcome.ok);
    assert.match(outcome.error, /plan\.steps\.0\.actionType: Invalid option: expected one of "CREATE"\|"MODIFY"\|"DELETE"\|"REFACTOR"/);
    assert.match(outcome.error, /plan\.complexity: Invalid option/);
    const noSteps = await registry.execute(submitPlanTool, { spec: 'x', plan: { ...plan, steps: [] } }, ctx);
    assert.ok(!noSteps.ok && /plan\.steps: a plan needs at least one step/.test(noSteps.error));
    const noSpec = await registry.execute(submitPlanTool, { plan }, ctx);
    assert.ok(!noSpec.ok && /spec: /.test(noSpec.error));
  });

  it('acknowledge a valid call', async () => {
    const registry = new ToolRegistry().register(submitPlanTool).register(submitChangesTool);
    const ctx = toolContext(memoryHost());
    assert.deepEqual(bare(await registry.execute(submitPlanTool, { spec: 'Add adds', plan }, ctx)), {
      ok: true,
      content: 'Plan received.',
    });
    assert.deepEqual(bare(await registry.execute(submitChangesTool, { summary: 'Fixed Add' }, ctx)), {
      ok: true,
      content: 'Changes received.',
    });
    const missing = await registry.execute(submitChangesTool, {}, ctx);
    assert.ok(!missing.ok && /summary: /.test(missing.error));
  });

  it('tell the model the clean plan shape in JSON Schema', () => {
    const [tool] = new ToolRegistry().register(submitPlanTool).toModelTools([submitPlanTool]);
    assert.equal(tool.kind, 'custom');
    if (tool.kind !== 'custom') return;
    const planSchema = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).plan;
    // `steps` or `phases`: either may be left out, which the schema's refinement checks.
    assert.deepEqual(planSchema.required, ['summary', 'complexity']);
    const phase = (planSchema.properties as Record<string, Record<string, unknown>>).phases.items as Record<string, unknown>;
    assert.deepEqual(phase.required, ['id', 'name', 'steps']);
    const step = (planSchema.properties as Record<string, Record<string, unknown>>).steps.items as Record<string, Record<string, unknown>>;
    assert.deepEqual((step.properties as Record<string, Record<string, unknown>>).actionType.enum, [
      'CREATE',
      'MODIFY',
      'DELETE',
      'REFACTOR',
    ]);
    assert.deepEqual(step.required, ['number', 'description', 'actionType', 'filePath']);
    assert.ok(submitPlanInput);
  });
});
