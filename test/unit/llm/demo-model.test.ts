import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runCoder } from '../../../src/core/agents/coder/runner';
import { runPlanner } from '../../../src/core/agents/planner/runner';
import { findArithmeticBug, stripLineNumbers } from '../../../src/core/llm/providers/demo/demo-bug-finder';
import { DEMO_MODEL_ID, createDemoModelClient } from '../../../src/core/llm/providers/demo/demo-model';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from '../agents/agent-harness';

describe('scripted demo model', () => {
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  async function planAndCode(): Promise<{ newContent: string; planSpec: string; summary: string }> {
    const rt = await agentRuntime(root, createDemoModelClient());
    const planned = await runPlanner(rt, { request: 'Fix the failing Calculator test' });
    const coded = await runCoder(rt, {
      request: 'Fix the failing Calculator test',
      spec: planned.spec,
      plan: planned.plan,
      errorContext: null,
      iteration: 1,
      overlay: new StagedOverlay(rt.host),
    });
    assert.equal(coded.edits.length, 1);
    assert.equal(coded.edits[0].filePath, CALCULATOR_SOURCE);
    const models = rt.events.flatMap((event) => (event.kind === 'model_call' ? [event.model] : []));
    assert.ok(models.length >= 5 && models.every((model) => model === DEMO_MODEL_ID));
    const tools = rt.events.flatMap((event) => (event.kind === 'tool_call' ? [`${event.tool}:${event.ok}`] : []));
    assert.ok(
      tools.every((tool) => tool.endsWith(':true')),
      tools.join(', '),
    );
    return { newContent: coded.edits[0].newContent ?? '', planSpec: planned.spec, summary: coded.summary };
  }

  it('fixes the sample Divide bug through the real tools, labelling itself as scripted', async () => {
    const { newContent, planSpec, summary } = await planAndCode();
    assert.match(planSpec, /Divide must use the \/ operator/);
    assert.match(newContent, /return a \/ b;/);
    assert.match(newContent, /public static int Multiply\(int a, int b\) => a \* b;/, 'Multiply is left alone');
    assert.match(summary, /^\[scripted demo model, not an LLM\]/);
  });

  it('finds the bug by reading, not by knowing the file: an Add bug is fixed too', async () => {
    const file = path.join(root, CALCULATOR_SOURCE);
    const source = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      source.replace('return a * b;', 'return a / b;').replace('Add(int a, int b) => a + b;', 'Add(int a, int b) => a - b;'),
    );
    const { newContent } = await planAndCode();
    assert.match(newContent, /Add\(int a, int b\) => a \+ b;/);
    assert.match(newContent, /Subtract\(int a, int b\) => a - b;/);
  });
});

describe('demo bug finder', () => {
  it('reads cat -n numbered output and finds the wrong operator with the corrected line', () => {
    const numbered = [
      '     1\tclass C {',
      '     2\t    int Subtract(int x, int y)',
      '     3\t    {',
      '     4\t        return x + y;',
      '     5\t    }',
      '     6\t}',
    ].join('\n');
    const bug = findArithmeticBug(stripLineNumbers(numbered));
    assert.deepEqual(bug, {
      method: 'Subtract',
      line: 4,
      lineText: '        return x + y;',
      wrongOperator: '+',
      rightOperator: '-',
      fixedLineText: '        return x - y;',
    });
  });

  it('finds nothing in correct code', () => {
    assert.equal(findArithmeticBug(stripLineNumbers('     1\tint Add(int a, int b) => a + b;')), null);
  });
});
