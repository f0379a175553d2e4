// The size estimate a tool loop makes before every model call (compaction.ts), over one long
// conversation: the whole request measured again each time (estimateTokens) against parts measured
// once (RequestSizer, what the loop uses). A conversation of TURNS turns, each reading a file of
// FILE_CHARS characters, with the planner's and coder's tools. Runs interleaved; medians.
// `node --import tsx bench/request-size.bench.ts`

import { performance } from 'node:perf_hooks';
import { RequestSizer, estimateTokens } from '../src/core/agents/compaction';
import type { ModelMessage, ModelToolDefinition } from '../src/core/llm/port';

const TURNS = Number(process.env.IRONBEES_BENCH_TURNS ?? 40);
const FILE_CHARS = 8_000;
const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 15);

const tools: ModelToolDefinition[] = Array.from({ length: 8 }, (_, i) => ({
  kind: 'custom',
  name: `tool_${i}`,
  description: `Tool ${i}. ${'Explains what it does. '.repeat(10)}`,
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'A workspace-relative path.' }, offset: { type: 'integer' } },
    required: ['path'],
  },
}));

function conversation(): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Fix the failing tests.' }];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading file ${turn}.` },
        { type: 'tool_use', id: `t${turn}`, name: 'tool_0', input: { path: `src/File${turn}.cs` } },
      ],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: `${turn}: ${'x'.repeat(FILE_CHARS)}` }],
    });
  }
  return messages;
}

/** The loop's sizing over the whole conversation: one estimate per model call, the conversation two messages longer each time. */
function loop(estimate: (messages: readonly ModelMessage[]) => number, all: readonly ModelMessage[]): number {
  const started = performance.now();
  let checksum = 0;
  for (let length = 1; length <= all.length; length += 2) checksum += estimate(all.slice(0, length));
  const elapsed = performance.now() - started;
  if (checksum <= 0) throw new Error('no estimate');
  return elapsed;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];
const system = 'You are the coder. '.repeat(200);
const whole: number[] = [];
const parts: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const all = conversation();
  whole.push(loop((messages) => estimateTokens(system, tools, messages), all));
  const sizer = new RequestSizer(system, tools);
  parts.push(loop((messages) => sizer.tokens(messages), conversation()));
}
console.log(
  `Request sizing over a ${TURNS}-turn conversation (${FILE_CHARS}-character reads), ${RUNS} runs, medians (first run in brackets)`,
);
console.log(`  whole request each call (estimateTokens): ${median(whole).toFixed(2)} ms (${whole[0].toFixed(2)})`);
console.log(`  parts measured once (RequestSizer):       ${median(parts).toFixed(2)} ms (${parts[0].toFixed(2)})`);
