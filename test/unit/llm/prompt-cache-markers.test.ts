import assert from 'node:assert/strict';
import { AnthropicModelClient } from '../../../src/core/llm/providers/anthropic/anthropic';
import { conversationBreakpoints } from '../../../src/core/llm/providers/anthropic/anthropic-mapping';
import type { ContentBlock, ModelMessage, ModelToolDefinition, ToolUseBlock } from '../../../src/core/llm/port';
import { startFakeAnthropic, text, turn } from '../../support/fake-anthropic';
import type { FakeAnthropic, FakeRequestBody } from '../../support/fake-anthropic';
import { PromptCacheSim } from '../../support/prompt-cache-sim';

const PARALLEL = 12;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const TOOLS: ModelToolDefinition[] = ['read_file', 'search_text', 'list_files', 'find_symbol'].map((name) => ({
  kind: 'custom' as const,
  name,
  description: `${name}: ${'what the tool does and when to use it. '.repeat(20)}`,
  inputSchema: { properties: { path: { type: 'string' } } },
}));
const SYSTEM = `You are the coder. ${'A rule of the house, explained at length. '.repeat(200)}`;

const calls = (turnNo: number, count: number): ToolUseBlock[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'tool_use',
    id: `toolu_${turnNo}_${i}`,
    name: 'read_file',
    input: { path: `src/File${turnNo}_${i}.cs` },
  }));
const results = (uses: readonly ToolUseBlock[]): ContentBlock[] =>
  uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: `// ${use.id}\n${'public int Member() => 42;\n'.repeat(40)}` }));

/** Where the breakpoints of a sent request are: "tools[i]", "system[i]", "messages[m][b]". */
function markers(body: FakeRequestBody): string[] {
  const found: string[] = [];
  (body.tools ?? []).forEach((tool, i) => tool.cache_control && found.push(`tools[${i}]`));
  if (Array.isArray(body.system)) body.system.forEach((block, i) => block.cache_control && found.push(`system[${i}]`));
  body.messages.forEach((message, m) => {
    if (Array.isArray(message.content)) message.content.forEach((block, b) => block.cache_control && found.push(`messages[${m}][${b}]`));
  });
  return found;
}

/** The same request with only the newest message's breakpoint, as placed before: for the side-by-side figure. */
function withNewestMarkerOnly(body: FakeRequestBody): FakeRequestBody {
  const last = body.messages.length - 1;
  return {
    ...body,
    messages: body.messages.map((message, m) =>
      m === last || typeof message.content === 'string'
        ? message
        : { ...message, content: message.content.map(({ cache_control: _dropped, ...block }) => block) },
    ),
  };
}

describe('prompt cache breakpoints with many parallel tool calls', () => {
  let fake: FakeAnthropic;
  before(async () => (fake = await startFakeAnthropic()));
  after(async () => fake.close());

  it('marks the newest message and the one the previous request ended with, and nothing else in the conversation', () => {
    const user = (t: string): ModelMessage => ({ role: 'user', content: t });
    const answer: ModelMessage = { role: 'assistant', content: calls(1, 2) };
    assert.deepEqual([...conversationBreakpoints([])], []);
    assert.deepEqual([...conversationBreakpoints([user('a')])], [0]);
    assert.deepEqual([...conversationBreakpoints([user('a'), answer, user('b')])].sort(), [0, 2]);
    assert.deepEqual([...conversationBreakpoints([user('a'), answer, user('b'), answer, user('c')])].sort(), [2, 4]);
  });

  it(`keeps a turn with ${PARALLEL} parallel tool calls reading the cached conversation (real client → fake)`, async () => {
    const client = new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0, logger: silent });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Fix the failing Calculator tests.' }];
    const ask = async (): Promise<void> => {
      const response = await client.complete({
        model: 'claude-sonnet-4-6',
        system: SYSTEM,
        tools: TOOLS,
        messages: [...messages],
        maxTokens: 1000,
      });
      messages.push({ role: 'assistant', content: response.content });
      const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (uses.length > 0) messages.push({ role: 'user', content: results(uses) });
    };
    fake.enqueue(turn(calls(1, 1)), turn(calls(2, PARALLEL)), turn(calls(3, 1)), text('done'));
    for (let i = 0; i < 4; i += 1) await ask();

    const bodies = fake.requests.map((r) => r.body);
    assert.equal(bodies.length, 4);
    // Request 3 follows the 12-call turn: messages[3] holds 12 tool_use blocks, messages[4] their 12 results.
    assert.deepEqual(bodies.map(markers), [
      ['tools[3]', 'system[0]', 'messages[0][0]'],
      ['tools[3]', 'system[0]', 'messages[0][0]', 'messages[2][0]'],
      ['tools[3]', 'system[0]', 'messages[2][0]', `messages[4][${PARALLEL - 1}]`],
      ['tools[3]', 'system[0]', `messages[4][${PARALLEL - 1}]`, 'messages[6][0]'],
    ]);

    // The figure: what each request reads from the cache, with the breakpoints as placed now and as placed before.
    const now = new PromptCacheSim();
    const before = new PromptCacheSim();
    const outcomes = bodies.map((body) => ({ now: now.request(body), before: before.request(withNewestMarkerOnly(body)) }));
    const toolsAndSystem = new PromptCacheSim().request({ ...bodies[0], messages: [] }).totalTokens;
    // After the 12-call turn the whole previous request is read back; before, only tools + system were.
    assert.equal(outcomes[2].now.cacheReadTokens, outcomes[1].now.totalTokens);
    assert.equal(outcomes[2].before.cacheReadTokens, toolsAndSystem);
    // Every request after the first reads everything the one before it sent.
    for (const i of [1, 2, 3]) assert.equal(outcomes[i].now.cacheReadTokens, outcomes[i - 1].now.totalTokens, `request ${i}`);
    if (process.env.IRONBEES_PRINT_CACHE_SHARES) {
      console.log(
        JSON.stringify(
          outcomes.map((o) => ({ now: o.now.cachedShare.toFixed(3), before: o.before.cachedShare.toFixed(3), total: o.now.totalTokens })),
        ),
      );
    }
  });
});
