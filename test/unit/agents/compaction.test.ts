// Long conversations: older tool results are compacted when a request would pass its share of the
// context window; the decision log (assistant turns) and the C# declarations are kept.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runPlanner } from '../../../src/core/agents/planner/runner';
import { RequestSizer, compactMessages, estimateTokens, signatureLines } from '../../../src/core/agents/compaction';
import type { ModelMessage, ModelToolDefinition, ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../../src/core/llm/scripted';
import { agentRuntime, copyCalculator } from './agent-harness';

const BIG_FILE = 'src/Calculator/Big.cs';
function bigSource(): string {
  const members = Array.from({ length: 120 }, (_, i) => `    // filler line ${i} ${'x'.repeat(60)}`).join('\n');
  return `namespace Calculator;\n\npublic class Big\n{\n    public int Twice(int a)\n    {\n        return a * 2;\n    }\n${members}\n}\n`;
}

describe('compaction of long conversations', function () {
  this.timeout(15_000);
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
    await fs.writeFile(path.join(root, BIG_FILE), bigSource());
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('keeps declarations of a C# file and drops the rest', () => {
    assert.deepEqual(signatureLines(bigSource()), ['namespace Calculator;', 'public class Big', '    public int Twice(int a)']);
  });

  it('leaves the newest two turns and short results whole', () => {
    const result = (id: string, content: string): ToolResultBlock => ({ type: 'tool_result', tool_use_id: id, content });
    const long = 'y'.repeat(900);
    const { messages, compactedResults } = compactMessages([
      { role: 'user', content: 'request' },
      { role: 'assistant', content: [textBlock('I will read it.'), toolUseBlock('read_file', { path: 'a' }, 'a')] },
      { role: 'user', content: [result('a', long), result('s', 'short')] },
      { role: 'assistant', content: [toolUseBlock('read_file', { path: 'b' }, 'b')] },
      { role: 'user', content: [result('b', long)] },
      { role: 'assistant', content: [toolUseBlock('read_file', { path: 'c' }, 'c')] },
      { role: 'user', content: [result('c', long)] },
    ]);
    assert.equal(compactedResults, 1);
    const first = (messages[2].content as ToolResultBlock[])[0].content;
    assert.match(first, /^\[compacted: 900 characters of this older tool result were dropped/);
    assert.equal((messages[2].content as ToolResultBlock[])[1].content, 'short');
    assert.equal((messages[4].content as ToolResultBlock[])[0].content, long);
    assert.equal((messages[6].content as ToolResultBlock[])[0].content, long);
    assert.deepEqual(
      messages[1],
      { role: 'assistant', content: [textBlock('I will read it.'), toolUseBlock('read_file', { path: 'a' }, 'a')] },
      'the decision log is kept',
    );
  });

  it('the planner with a small window: the request after the third read carries the first read compacted, traced', async () => {
    const model = new ScriptedModelClient([
      modelTurn([textBlock('Reading Big.cs first.'), toolUseBlock('read_file', { path: BIG_FILE }, 'r1')]),
      modelTurn([toolUseBlock('read_file', { path: BIG_FILE, offset: 2 }, 'r2')]),
      modelTurn([toolUseBlock('read_file', { path: BIG_FILE, offset: 3 }, 'r3')]),
      modelTurn([
        toolUseBlock('submit_plan', {
          spec: 'Twice doubles.',
          plan: {
            summary: 'x',
            steps: [{ number: 1, description: 'd', actionType: 'MODIFY', filePath: BIG_FILE, rationale: 'r' }],
            affectedFiles: [BIG_FILE],
            complexity: 'LOW',
          },
        }),
      ]),
    ]);
    const rt = await agentRuntime(root, model);
    const planner = rt.agents.get('planner');
    assert.ok(planner);
    // ≈ 6,000 tokens of window: three reads of a 9 kB file pass 70 % of it.
    rt.agents = new Map([...rt.agents, ['planner', { ...planner, toolConfig: { ...planner.toolConfig, contextWindowTokens: 6000 } }]]);
    await runPlanner(rt, { request: 'Make Twice clearer' });

    const readResult = (requestIndex: number, messageIndex: number): string =>
      (model.requests[requestIndex].messages[messageIndex].content as ToolResultBlock[])[0].content;
    assert.match(readResult(2, 2), /public int Twice/, 'the 3rd request still has the first read whole');
    const compacted = readResult(3, 2);
    assert.match(compacted, /^\[compacted: \d+ characters of this older tool result were dropped/);
    assert.match(
      compacted,
      /Declarations it showed:\n {5}1\tnamespace Calculator;\n {5}3\tpublic class Big\n {5}5\t {4}public int Twice\(int a\)$/,
    );
    assert.match(readResult(3, 4), /filler line 5/, 'the newer reads are whole');
    assert.deepEqual(model.requests[3].messages[1].content, [
      textBlock('Reading Big.cs first.'),
      toolUseBlock('read_file', { path: BIG_FILE }, 'r1'),
    ]);
    const traced = rt.events.filter((e) => e.kind === 'compaction');
    assert.equal(traced.length, 1);
    assert.equal(traced[0].kind === 'compaction' && traced[0].compactedResults, 1);
    assert.ok(traced[0].kind === 'compaction' && traced[0].estimatedTokensAfter < traced[0].estimatedTokensBefore);
  });

  it('sizes each request as estimateTokens does, measuring the tools once and each message once', () => {
    // toJSON is what JSON.stringify calls on each object it measures: counted, and answering the object as it is.
    const measured = new Map<string, number>();
    const counted = <T extends object>(name: string, value: T): T =>
      Object.defineProperty(value, 'toJSON', {
        enumerable: false,
        value: () => (measured.set(name, (measured.get(name) ?? 0) + 1), { ...value }),
      });
    const tools: ModelToolDefinition[] = [
      counted('tool', { kind: 'custom', name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object' } }),
    ];
    const conversation: ModelMessage[] = [
      counted('m0', { role: 'user', content: 'Fix Subtract' }),
      counted('m1', { role: 'assistant', content: [toolUseBlock('read_file', { path: 'a.cs' }, 'a')] }),
      counted('m2', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'é'.repeat(900) }] }),
      counted('m3', { role: 'assistant', content: [textBlock('Done.')] }),
    ];
    const sizer = new RequestSizer('the system prompt', tools);
    const sizes: number[] = [];
    // One request per turn, the conversation one message longer each time (and an empty one).
    for (let length = 0; length <= conversation.length; length++) sizes.push(sizer.tokens(conversation.slice(0, length)));
    assert.deepEqual(Object.fromEntries(measured), { tool: 1, m0: 1, m1: 1, m2: 1, m3: 1 }, 'measured once each');
    measured.clear();
    const expected = Array.from({ length: conversation.length + 1 }, (_, length) =>
      estimateTokens('the system prompt', tools, conversation.slice(0, length)),
    );
    assert.deepEqual(sizes, expected);
    assert.deepEqual(expected, [30, 40, 66, 312, 328]);
  });
});
