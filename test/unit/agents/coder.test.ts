import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { NOTHING_CHANGED_MESSAGE, coderMessage, runCoder } from '../../../src/core/agents/coder/runner';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import type { ErrorContext, ExecutionPlan } from '../../../src/core/model';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { AgentModeError } from '../../../src/core/errors';
import { BLOCKED_CODE, outsidePlanMessage } from '../../../src/core/agents/coder/plan-scope';
import { CALCULATOR_SOURCE, agentRuntime, copyCalculator } from './agent-harness';

const EDITOR = 'str_replace_based_edit_tool';
const PLAN: ExecutionPlan = {
  summary: 'Fix Divide.',
  steps: [
    { number: 1, description: 'Return a / b in Divide', actionType: 'MODIFY', filePath: CALCULATOR_SOURCE, rationale: 'It multiplies' },
  ],
  affectedFiles: [CALCULATOR_SOURCE],
  complexity: 'LOW',
};

describe('runCoder', () => {
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('views, edits the staged overlay with str_replace and returns the edits at submit', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock(EDITOR, { command: 'view', path: CALCULATOR_SOURCE }, 'v1')], { usage: { inputTokens: 100 } }),
      modelTurn(
        [
          toolUseBlock(
            EDITOR,
            { command: 'str_replace', path: CALCULATOR_SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' },
            'e1',
          ),
        ],
        {
          usage: { inputTokens: 200 },
        },
      ),
      modelTurn([toolUseBlock('submit_changes', { summary: 'Divide now divides.' })], { usage: { inputTokens: 300 } }),
    ]);
    const rt = await agentRuntime(root, model);
    const overlay = new StagedOverlay(rt.host);
    const result = await runCoder(rt, {
      request: 'Fix Divide',
      spec: 'Divide returns a / b.',
      plan: PLAN,
      errorContext: null,
      iteration: 1,
      overlay,
    });

    assert.equal(result.summary, 'Divide now divides.');
    assert.equal(result.usage.inputTokens, 600);
    assert.equal(result.edits.length, 1);
    const [edit] = result.edits;
    assert.equal(edit.filePath, CALCULATOR_SOURCE);
    assert.equal(edit.type, 'MODIFY');
    assert.match(edit.newContent ?? '', /return a \/ b;/);
    assert.match(edit.diffText, /-\s+return a \* b;\n\+\s+return a \/ b;/);
    const onDisk = await fs.readFile(path.join(root, CALCULATOR_SOURCE), 'utf8');
    assert.match(onDisk, /return a \* b;/, 'nothing reaches the disk before approval');

    const first = model.requests[0];
    assert.ok(first.tools.some((tool) => tool.kind === 'text_editor'));
    assert.equal(first.tools.at(-1)?.name, 'submit_changes');
    assert.match(first.system, /never claim that the code builds or that tests pass/);
    const message = String(first.messages[0].content);
    assert.match(
      message,
      /# Approved plan\n\nFix Divide\. \(complexity LOW\)\n\n1\. MODIFY `src\/Calculator\/Calculator\.cs`: Return a \/ b in Divide \(why: It multiplies\)/,
    );
    assert.doesNotMatch(message, /Attempt/);
  });

  it('questions a submission with no edits once, then accepts it', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('submit_changes', { summary: 'Nothing to do?' }, 's1')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'Already correct.' }, 's2')]),
    ]);
    const rt = await agentRuntime(root, model);
    const result = await runCoder(rt, {
      request: 'Fix Divide',
      spec: 's',
      plan: PLAN,
      errorContext: null,
      iteration: 1,
      overlay: new StagedOverlay(rt.host),
    });
    assert.deepEqual(result.edits, []);
    assert.equal(result.summary, 'Already correct.');
    const [questioned] = model.requests[1].messages[2].content as ToolResultBlock[];
    assert.equal(questioned.is_error, true);
    assert.equal(questioned.content, NOTHING_CHANGED_MESSAGE);
    assert.match(NOTHING_CHANGED_MESSAGE, /^You changed nothing/);
  });

  it('refuses a first submission that changes files outside the plan, naming them; a second is taken at its word', async () => {
    const TEST_FILE = 'tests/Calculator.Tests/CalculatorTests.cs';
    const model = new ScriptedModelClient([
      modelTurn([
        toolUseBlock(EDITOR, { command: 'str_replace', path: CALCULATOR_SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }, 'e1'),
      ]),
      modelTurn([
        toolUseBlock(
          EDITOR,
          { command: 'create', path: TEST_FILE.replace('CalculatorTests.cs', 'Extra.cs'), file_text: '// extra\n' },
          'e2',
        ),
      ]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'Fixed.' }, 's1')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'The extra file is needed because …' }, 's2')]),
    ]);
    const rt = await agentRuntime(root, model);
    const result = await runCoder(rt, {
      request: 'Fix Divide',
      spec: 's',
      plan: PLAN,
      errorContext: null,
      iteration: 1,
      overlay: new StagedOverlay(rt.host),
    });
    const [refusal] = model.requests[3].messages.at(-1)?.content as ToolResultBlock[];
    assert.equal(refusal.is_error, true);
    assert.equal(refusal.content, outsidePlanMessage(['tests/Calculator.Tests/Extra.cs'], PLAN));
    assert.match(
      refusal.content,
      /^Not submitted: you changed files the approved plan does not name: tests\/Calculator\.Tests\/Extra\.cs\. The plan covers src\/Calculator\/Calculator\.cs\./,
    );
    assert.match(refusal.content, /a summary that starts with "BLOCKED:"/);
    assert.deepEqual(
      result.edits.map((edit) => edit.filePath),
      [CALCULATOR_SOURCE, 'tests/Calculator.Tests/Extra.cs'],
    );
    assert.equal(result.summary, 'The extra file is needed because …');
  });

  it('a BLOCKED: summary stops the coder with an escalation carrying its words and its usage, applying nothing', async () => {
    const model = new ScriptedModelClient([
      modelTurn(
        [
          toolUseBlock(
            EDITOR,
            { command: 'str_replace', path: CALCULATOR_SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' },
            'e1',
          ),
        ],
        { usage: { inputTokens: 10 } },
      ),
      modelTurn([toolUseBlock('submit_changes', { summary: 'BLOCKED: the test expects 18 for 6 / 3; the test is wrong, not Divide.' })], {
        usage: { inputTokens: 20 },
      }),
    ]);
    const rt = await agentRuntime(root, model);
    const error = await runCoder(rt, {
      request: 'Fix Divide',
      spec: 's',
      plan: PLAN,
      errorContext: null,
      iteration: 1,
      overlay: new StagedOverlay(rt.host),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof AgentModeError);
    assert.equal(error.code, BLOCKED_CODE);
    assert.equal(error.message, 'The coder stopped and asks you to decide: the test expects 18 for 6 / 3; the test is wrong, not Divide.');
    assert.equal((error.details as { usage: { inputTokens: number } }).usage.inputTokens, 30);
    assert.match(await fs.readFile(path.join(root, CALCULATOR_SOURCE), 'utf8'), /return a \* b;/);
  });

  it('starts a retry with what is already applied: files and diff', () => {
    const errorContext: ErrorContext = {
      iteration: 1,
      text: 'Build failed: CS0111 duplicate member',
      newBuildErrors: [],
      newTestFailures: [],
      preExistingFailures: [],
    };
    const diff =
      '--- a/src/Calculator/Calculator.cs\n+++ b/src/Calculator/Calculator.cs\n@@ -1 +1,2 @@\n+public int Mod(int a, int b) => a % b;';
    const message = coderMessage({
      request: 'r',
      spec: 's',
      plan: PLAN,
      errorContext,
      iteration: 2,
      applied: [{ iteration: 1, files: [CALCULATOR_SOURCE], diff }],
    });
    assert.ok(
      message.startsWith(
        '# Already applied (in the workspace now)\n\nYour earlier attempts changed src/Calculator/Calculator.cs; these changes are on disk, and what you view includes them. Do not add them again.\n\n```diff\n' +
          diff +
          '\n```\n\n# Attempt 2: your previous attempt did not pass validation',
      ),
      message.slice(0, 400),
    );
    const huge = coderMessage({
      request: 'r',
      spec: 's',
      plan: PLAN,
      errorContext,
      iteration: 2,
      applied: [{ iteration: 1, files: ['a.cs'], diff: 'x'.repeat(10_000) }],
    });
    assert.match(huge, /\n… 4000 more characters of diff not shown\n```/);
  });

  it('leads a later iteration with the error context, the rejections and the guidance', () => {
    const errorContext: ErrorContext = {
      iteration: 1,
      text: "Build failed: src/Calculator/Calculator.cs(18,16): error CS0103: The name 'c' does not exist",
      newBuildErrors: [],
      newTestFailures: [],
      preExistingFailures: [],
      rejections: 'Rejected src/Other.cs: do not touch it.',
      guidance: 'Keep the DivideByZeroException check.',
    };
    const message = coderMessage({ request: 'Fix Divide', spec: 'Divide returns a / b.', plan: PLAN, errorContext, iteration: 2 });
    assert.match(message, /^# Attempt 2: your previous attempt did not pass validation\n\nBuild failed: .*CS0103/);
    assert.match(message, /# Changes the person rejected\n\nRejected src\/Other\.cs: do not touch it\./);
    assert.match(message, /# Guidance from the person\n\nKeep the DivideByZeroException check\./);
    assert.match(message, /# Specification\n\nDivide returns a \/ b\./);
    assert.match(message, /Fix the problems above, keeping to the plan, then call submit_changes\./);

    const alreadyRendered = coderMessage({
      request: 'r',
      spec: 's',
      plan: PLAN,
      iteration: 2,
      errorContext: { ...errorContext, text: `${errorContext.text}\nGuidance: Keep the DivideByZeroException check.` },
    });
    assert.doesNotMatch(alreadyRendered, /# Guidance from the person/, 'not repeated when the text already has it');
  });
});
