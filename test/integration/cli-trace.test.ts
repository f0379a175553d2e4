// The trace of a real run (issue 14): the real CLI on a copy of the calculator fixture (real dotnet,
// the real Anthropic SDK against a scripted local fake), exporting to a local OTLP/HTTP receiver.
// Then `ironbees trace` reads the run back: the turns, and the summary with exact counts.

import assert from 'node:assert/strict';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { startFakeOtlp } from '../support/fake-otlp';
import type { FakeOtlp, ReceivedSpan } from '../support/fake-otlp';
import { copyFixture, ensureCliBuilt, removeDir, runCli, traceEvents } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

interface Summary {
  kind: 'summary';
  currentNode: string;
  traceId: string;
  turns: number;
  turnsPerStep: Array<{ label: string; turns: number }>;
  toolCalls: number;
  failedToolCalls: number;
  p95ToolLatencyMs: number;
  errorKinds: Array<{ kind: string; count: number }>;
  retries: number;
  malformedTurns: number;
  tokens: { input: number; output: number; costUsd: number };
}

describe('ironbees trace and the OTLP export of a real run (real dotnet, real SDK, fake Messages API, local OTLP receiver)', function () {
  this.timeout(420_000);
  let fake: FakeAnthropic;
  let otlp: FakeOtlp;
  let workspace: string;
  let runId: string;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    otlp = await startFakeOtlp();
    workspace = copyFixture('calculator');
    fake.enqueue(
      toolUse('read_file', { path: SOURCE }),
      toolUse('submit_plan', { spec: PLAN.spec, plan: { summary: 'x', steps: [], complexity: 'LOW' } }),
      toolUse('submit_plan', PLAN),
      toolUse('no_such_tool', {}),
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Divide now divides.' }),
    );
    const env = {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
    };
    // The exact counts below are the planner's and the coder's; the reviewer's turns are traced and counted in cli-review.test.ts.
    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json', '--review', 'off'],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1);
    assert.equal(final?.currentNode, 'SUCCESS');
    runId = final.stateId;
  });
  after(async () => {
    await fake.close();
    await otlp.close();
    removeDir(workspace);
  });

  it('writes one turn per model call beside the old events, and `trace --json` sums them up exactly', async () => {
    const events = traceEvents(workspace, runId);
    assert.equal(events.filter((e) => e.kind === 'model_call').length, 6, 'the old kinds stay');
    assert.equal(events.filter((e) => e.kind === 'tool_call').length, 6);
    assert.equal(events.filter((e) => e.kind === 'turn').length, 6);

    const traced = await runCli(['trace', runId, '--workspace', workspace, '--json'], {});
    assert.equal(traced.code, 0, traced.stderr);
    const lines = traced.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(lines.length, 7, 'six turns, then the summary');
    assert.deepEqual(
      lines.slice(0, 6).map((t) => [t.step, t.role, t.turn, t.intent, (t.outcome as { status: string }).status]),
      [
        ['PLAN', 'planner', 1, 'call_tool', 'continue'],
        ['PLAN', 'planner', 2, 'submit', 'malformed'],
        ['PLAN', 'planner', 3, 'submit', 'done'],
        ['CODE', 'coder', 1, 'call_tool', 'malformed'],
        ['CODE', 'coder', 2, 'call_tool', 'continue'],
        ['CODE', 'coder', 3, 'submit', 'done'],
      ],
    );
    const summary = lines[6] as unknown as Summary;
    assert.equal(summary.kind, 'summary');
    assert.equal(summary.currentNode, 'SUCCESS');
    assert.match(summary.traceId, /^[0-9a-f]{32}$/);
    assert.deepEqual(summary.turnsPerStep, [
      { label: 'PLAN', turns: 3 },
      { label: 'CODE 1', turns: 3 },
    ]);
    assert.deepEqual([summary.turns, summary.toolCalls, summary.failedToolCalls, summary.retries, summary.malformedTurns], [6, 6, 2, 2, 2]);
    assert.deepEqual(summary.errorKinds, [
      { kind: 'InvalidInput', count: 1 },
      { kind: 'NotFound', count: 1 },
    ]);
    assert.deepEqual([summary.tokens.input, summary.tokens.output], [60, 30]);
    const toolLatencies = events.filter((e) => e.kind === 'tool_call').map((e) => e.durationMs as number);
    assert.equal(summary.p95ToolLatencyMs, Math.max(...toolLatencies), 'nearest rank of 6 values is the largest');

    const text = await runCli(['trace', runId, '--workspace', workspace], {});
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^PLAN · planner · anthropic\/\S+ · 3 turns$/m);
    assert.match(text.stdout, /^CODE 1 · coder · anthropic\/\S+ · 3 turns$/m);
    assert.match(text.stdout, /✗ no_such_tool NotFound, arguments refused/);
    assert.match(text.stdout, /^ {2}turns: 6 — PLAN 3, CODE 1 3$/m);
    assert.match(text.stdout, /^ {2}error kinds: InvalidInput 1, NotFound 1$/m);
    assert.match(text.stdout, /^ {2}retries: 2 · malformed turns: 2$/m);
    process.stdout.write(`\n--- ironbees trace ${runId} ---\n${text.stdout}\n`);

    const missing = await runCli(['trace', '20990101-000000-abcdef', '--workspace', workspace], {});
    assert.equal(missing.code, 2, missing.stderr);
  });

  it('exports a span per run, step, model call and tool call to the OTLP endpoint, in the run trace', () => {
    const spans = otlp.spans;
    const events = traceEvents(workspace, runId);
    const turn = events.find((e) => e.kind === 'turn') as unknown as { trace_id: string; model: string };
    assert.ok(spans.length > 0, 'the receiver got spans');
    assert.ok(
      spans.every((s) => s.traceId === turn.trace_id),
      "one trace, whose id is the turns' trace_id",
    );

    const roots = spans.filter((s) => s.parentSpanId === '');
    assert.deepEqual(
      roots.map((s) => [s.name, s.attributes['ironbees.run.outcome'], s.attributes['gen_ai.conversation.id']]),
      [['invoke_workflow ironbees', 'SUCCESS', runId]],
    );
    const run = roots[0];
    const steps = spans.filter((s) => s.parentSpanId === run.spanId);
    const visited = events.filter((e) => e.kind === 'transition' && e.to !== 'SUCCESS').map((e) => e.to as string);
    // Sorted: two steps may start in the same millisecond.
    assert.deepEqual(
      steps.map((s) => s.attributes['ironbees.step']).sort(),
      [...visited].sort(),
      'a step span for every node the run went through',
    );
    const childrenOf = (span: ReceivedSpan | undefined): string[] =>
      spans
        .filter((s) => s.parentSpanId === span?.spanId)
        .sort((a, b) => a.startMs - b.startMs)
        .map((s) => s.name);
    const planner = steps.find((s) => s.name === 'invoke_agent planner');
    const coder = steps.find((s) => s.name === 'invoke_agent coder');
    const chat = `chat ${turn.model}`;
    assert.deepEqual(childrenOf(planner).filter((n) => n === chat).length, 3);
    assert.deepEqual(
      childrenOf(planner)
        .filter((n) => n !== chat)
        .sort(),
      ['execute_tool read_file', 'execute_tool submit_plan', 'execute_tool submit_plan'],
    );
    assert.deepEqual(childrenOf(coder).filter((n) => n === chat).length, 3);
    assert.deepEqual(
      childrenOf(coder)
        .filter((n) => n !== chat)
        .sort(),
      ['execute_tool no_such_tool', 'execute_tool str_replace_based_edit_tool', 'execute_tool submit_changes'],
    );
    assert.equal(spans.length, 1 + visited.length + 12);

    const chats = spans.filter((s) => s.name === chat);
    assert.deepEqual(
      chats.map((s) => [
        s.attributes['gen_ai.operation.name'],
        s.attributes['gen_ai.system'],
        s.attributes['gen_ai.request.model'],
        s.attributes['gen_ai.usage.input_tokens'],
        s.attributes['gen_ai.usage.output_tokens'],
      ]),
      Array.from({ length: 6 }, () => ['chat', 'anthropic', turn.model, 10, 5]),
    );
    const failed = spans.filter((s) => s.attributes['error.type'] !== undefined).map((s) => [s.name, s.attributes['error.type']]);
    assert.deepEqual(failed.sort(), [
      ['execute_tool no_such_tool', 'NotFound'],
      ['execute_tool submit_plan', 'InvalidInput'],
    ]);
  });
});
