import assert from 'node:assert/strict';
import { z } from 'zod';
import { runToolLoop } from '../../../src/core/agents/tool-loop';
import type { AgentDefinition } from '../../../src/core/agents/agent-definition';
import { sameCheckNote } from '../../../src/core/agents/check-loop';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { submitChangesTool } from '../../../src/core/agents/coder/terminal-tool';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createMemoryHost } from '../../support/memory-host';

const SAME = "1 new compile error(s) in Calc with your staged edits:\nsrc/Calc.cs:3:5: CS0103 The name 'c' does not exist";

function agent(): AgentDefinition {
  return {
    name: 'coder',
    description: 'd',
    version: '1',
    requiredTools: ['check_code', 'submit_changes'],
    promptTemplate: 'prompt.md',
    llmConfig: { model: 'claude-haiku-4-5', maxTokens: 1000 },
    toolConfig: { turnBudget: 20, maxMalformed: 2 },
    prompt: 'p',
    sourceDir: '/agents/coder',
    origin: 'bundled',
  };
}

describe('an edit → check loop without progress is told', () => {
  it('the third identical check_code answer in a row carries the note; a different answer resets the count', async () => {
    const answers = [SAME, SAME, SAME, SAME, 'No new compile errors (compiled Calc with your staged edits).', SAME];
    const checkCode: ToolDefinition<Record<string, never>> = {
      name: 'check_code',
      description: 'c',
      input: z.object({}),
      readonly: true,
      timeoutMs: 1000,
      execute: async () => ({ ok: true, content: answers.shift() ?? SAME }),
    };
    const host = createMemoryHost();
    const model = new ScriptedModelClient([
      ...Array.from({ length: 6 }, (_, i) => modelTurn([toolUseBlock('check_code', { attempt: i }, `c${i}`)])),
      modelTurn([toolUseBlock('submit_changes', { summary: 'done' })]),
    ]);
    await runToolLoop<string>({
      agent: agent(),
      runtime: { host, model, tools: new ToolRegistry().register(checkCode).register(submitChangesTool), agents: new Map() },
      toolContext: { host, overlay: new StagedOverlay(host) },
      userMessage: 'Fix it.',
      terminal: { name: 'submit_changes', accept: () => ({ ok: true, value: 'ok' }) },
    });
    const told = model.requests.slice(1).map((request) => {
      const last = request.messages.at(-1)?.content as ToolResultBlock[];
      return last[0].content;
    });
    assert.deepEqual(told, [
      SAME,
      SAME,
      SAME + sameCheckNote(3),
      SAME + sameCheckNote(4),
      'No new compile errors (compiled Calc with your staged edits).',
      SAME,
    ]);
    assert.match(
      sameCheckNote(3),
      /exactly these errors 3 times in a row: your edits since did not change them\. View the lines they name/,
    );
  });
});
