// The OpenTelemetry export of a run's events: where it goes, that it costs nothing when off, and the
// exact spans a local OTLP/HTTP receiver gets for a run's transitions and turns.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { otlpTracesUrl, startTraceExport } from '../../../src/core/runtime/telemetry/trace-export';
import { GEN_AI } from '../../../src/core/runtime/telemetry/otlp-spans';
import type { TraceEvent, TurnEvent } from '../../../src/core/trace';
import { RunStore } from '../../../src/core/workflow/store';
import { traceIdOf } from '../../../src/core/workflow/turn-trace';
import { startFakeOtlp } from '../../support/fake-otlp';
import type { FakeOtlp } from '../../support/fake-otlp';
import { TempWorkspace } from '../workflow/temp-workspace';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();

type Transition = Extract<TraceEvent, { kind: 'transition' }>;

function transition(from: Transition['from'], to: Transition['to'], atMs: number, iteration = 0): TraceEvent {
  return { kind: 'transition', at: iso(atMs), from, to, iteration };
}

function turn(overrides: Partial<TurnEvent> & Pick<TurnEvent, 'turn' | 'role' | 'step' | 'at'>): TurnEvent {
  return {
    kind: 'turn',
    trace_id: traceIdOf('run-otel'),
    iteration: 0,
    intent: 'call_tool',
    provider: 'anthropic',
    model: 'claude-test',
    stop_reason: 'tool_use',
    tool_calls: [],
    policy: { max_turns: 25, max_malformed: 3, max_iterations: 5, approvals: { plan: 'never', diffs: 'never' } },
    outcome: { status: 'continue', next_action: 'call_model' },
    retry: false,
    timings: { latency_ms: 100, model_ms: 60, tools_ms: 40 },
    tokens: { input: 1000, output: 50, cache_read: 0, cache_write: 0, cost_usd: 0.01 },
    ...overrides,
  };
}

describe('trace export (OpenTelemetry)', () => {
  describe('where it goes', () => {
    it('the setting (a base URL) first, then OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, then OTEL_EXPORTER_OTLP_ENDPOINT; off when none', () => {
      const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:8/' };
      assert.equal(otlpTracesUrl({ otlpEndpoint: 'https://collector.example:4318/', env }), 'https://collector.example:4318/v1/traces');
      assert.equal(otlpTracesUrl({ otlpEndpoint: '  ', env }), 'http://127.0.0.1:9/custom');
      assert.equal(otlpTracesUrl({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:8/' } }), 'http://127.0.0.1:8/v1/traces');
      assert.equal(otlpTracesUrl({ env: {} }), null);
      assert.equal(otlpTracesUrl({ env: { ...env, OTEL_SDK_DISABLED: 'TRUE' } }), null);
      assert.throws(() => otlpTracesUrl({ otlpEndpoint: 'file:///etc/passwd', env: {} }), /must be http:\/\/ or https:\/\//);
      assert.throws(() => otlpTracesUrl({ otlpEndpoint: 'not a url', env: {} }), /is not a URL/);
    });

    it('uses the semantic conventions package names', () => {
      assert.equal(GEN_AI.operationName, incubating.ATTR_GEN_AI_OPERATION_NAME);
      assert.equal(GEN_AI.system, incubating.ATTR_GEN_AI_SYSTEM);
      assert.equal(GEN_AI.providerName, incubating.ATTR_GEN_AI_PROVIDER_NAME);
      assert.equal(GEN_AI.requestModel, incubating.ATTR_GEN_AI_REQUEST_MODEL);
      assert.equal(GEN_AI.responseModel, incubating.ATTR_GEN_AI_RESPONSE_MODEL);
      assert.equal(GEN_AI.finishReasons, incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS);
      assert.equal(GEN_AI.inputTokens, incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS);
      assert.equal(GEN_AI.outputTokens, incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS);
      assert.equal(GEN_AI.cacheReadTokens, incubating.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS);
      assert.equal(GEN_AI.agentName, incubating.ATTR_GEN_AI_AGENT_NAME);
      assert.equal(GEN_AI.toolName, incubating.ATTR_GEN_AI_TOOL_NAME);
      assert.equal(GEN_AI.conversationId, incubating.ATTR_GEN_AI_CONVERSATION_ID);
      assert.equal(GEN_AI.workflowName, incubating.ATTR_GEN_AI_WORKFLOW_NAME);
    });

    // @opentelemetry/api is the Anthropic SDK's own (its tracing hooks); the SDK and exporter are ours.
    it('loads neither the OpenTelemetry SDK nor the exporter until a run is exported', () => {
      const root = path.resolve(__dirname, '../../..');
      const probe = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          "require('./src/core/runtime/index.ts'); console.log(Object.keys(require.cache).filter((k) => /@opentelemetry[\\\\/](sdk-|exporter-|otlp-|resources)/.test(k)).length)",
        ],
        { cwd: root, encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(probe.stdout.trim(), '0', probe.stderr);
    });
  });

  describe('spans of a run', () => {
    let ws: TempWorkspace;
    let otlp: FakeOtlp;
    beforeEach(async () => {
      ws = new TempWorkspace();
      // A slow collector: flush() must wait for the send the run's end started.
      otlp = await startFakeOtlp({ answerAfterMs: 300 });
    });
    afterEach(async () => {
      await otlp.close();
      ws.remove();
    });

    it('one per run, step, model call and tool call, with their parents, times and GenAI attributes', async () => {
      const store = new RunStore(ws.host);
      const exporter = startTraceExport(store, `${otlp.url}/v1/traces`, { env: {}, serviceVersion: '9.9.9' }, silent);
      const events: TraceEvent[] = [
        transition(null, 'INIT', 0),
        transition('INIT', 'PLAN', 10),
        turn({
          turn: 1,
          role: 'planner',
          step: 'PLAN',
          at: iso(110),
          tool_calls: [
            { tool_call: { name: 'read_file', args_valid: true }, tool_result: { ok: true, err: 'None', schema_ok: true }, latency_ms: 15 },
            {
              tool_call: { name: 'search', args_valid: false },
              tool_result: { ok: false, err: 'InvalidInput', schema_ok: false },
              latency_ms: 25,
            },
          ],
        }),
        turn({
          turn: 2,
          role: 'planner',
          step: 'PLAN',
          at: iso(200),
          intent: 'submit',
          outcome: { status: 'done', next_action: 'end_step' },
          timings: { latency_ms: 60, model_ms: 60, tools_ms: 0 },
        }),
        // Recorded before its step's transition (a transition is written once the state is saved).
        turn({
          turn: 1,
          role: 'coder',
          step: 'CODE',
          iteration: 1,
          at: iso(270),
          model: 'claude-code',
          timings: { latency_ms: 50, model_ms: 50, tools_ms: 0 },
        }),
        transition('PLAN', 'CODE', 210, 1),
        transition('CODE', 'SUCCESS', 300, 1),
      ];
      for (const event of events) await store.appendEvent('run-otel', event);
      await exporter.flush();
      exporter.stop();

      assert.deepEqual(
        otlp.requests.map((r) => [r.path, r.contentType]),
        [['/v1/traces', 'application/json']],
      );
      const spans = otlp.spans;
      const byName = new Map(spans.map((span) => [span.name, span]));
      assert.deepEqual(spans.map((s) => s.name).sort(), [
        'chat claude-code',
        'chat claude-test',
        'chat claude-test',
        'execute_tool read_file',
        'execute_tool search',
        'invoke_agent coder',
        'invoke_agent planner',
        'invoke_workflow ironbees',
        'step INIT',
      ]);
      const run = byName.get('invoke_workflow ironbees')!;
      const planner = byName.get('invoke_agent planner')!;
      assert.ok(
        spans.every((s) => s.traceId === traceIdOf('run-otel')),
        'every span in the run trace',
      );
      assert.equal(run.parentSpanId, '');
      for (const name of ['step INIT', 'invoke_agent planner', 'invoke_agent coder'])
        assert.equal(byName.get(name)!.parentSpanId, run.spanId, name);
      const plannerChildren = spans.filter((x) => x.name === 'chat claude-test' || x.name.startsWith('execute_tool'));
      for (const s of plannerChildren) assert.equal(s.parentSpanId, planner.spanId, s.name);
      assert.equal(
        byName.get('chat claude-code')!.parentSpanId,
        byName.get('invoke_agent coder')!.spanId,
        'an early turn waits for its step',
      );

      assert.deepEqual([run.startMs - T0, run.endMs - T0], [0, 300]);
      assert.deepEqual([planner.startMs - T0, planner.endMs - T0], [10, 210]);
      assert.deepEqual(run.attributes, {
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.workflow.name': 'ironbees',
        'gen_ai.conversation.id': 'run-otel',
        'ironbees.run.id': 'run-otel',
        'ironbees.run.outcome': 'SUCCESS',
      });
      assert.deepEqual(planner.attributes, {
        'ironbees.step': 'PLAN',
        'ironbees.iteration': 0,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'planner',
      });
      assert.equal(run.resource[ATTR_SERVICE_NAME], 'ironbees');
      assert.equal(run.resource['service.version'], '9.9.9');

      const chats = spans.filter((s) => s.name === 'chat claude-test').sort((a, b) => a.startMs - b.startMs);
      assert.deepEqual(
        chats.map((c) => [c.startMs - T0, c.endMs - T0, c.kind]),
        [
          [10, 70, 3],
          [140, 200, 3],
        ],
      );
      assert.deepEqual(chats[0].attributes, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'anthropic',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': 'claude-test',
        'gen_ai.response.model': 'claude-test',
        'gen_ai.response.finish_reasons': ['tool_use'],
        'gen_ai.usage.input_tokens': 1000,
        'gen_ai.usage.output_tokens': 50,
        'gen_ai.usage.cache_read.input_tokens': 0,
        'gen_ai.agent.name': 'planner',
        'ironbees.turn': 1,
        'ironbees.turn.intent': 'call_tool',
        'ironbees.turn.outcome': 'continue',
      });
      const read = byName.get('execute_tool read_file')!;
      const search = byName.get('execute_tool search')!;
      assert.deepEqual([read.startMs - T0, read.endMs - T0, search.startMs - T0, search.endMs - T0], [70, 85, 85, 110]);
      assert.deepEqual(read.attributes, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_file',
        'gen_ai.agent.name': 'planner',
        'ironbees.tool.args_valid': true,
      });
      assert.equal(search.attributes[ATTR_ERROR_TYPE], 'InvalidInput');
      assert.deepEqual(search.status, { code: 2, message: 'InvalidInput' });
    });

    it("the supervisor's timeout and restart are events of the step span its agent works in", async () => {
      const store = new RunStore(ws.host);
      const exporter = startTraceExport(store, `${otlp.url}/v1/traces`, { env: {}, serviceVersion: '9.9.9' }, silent);
      const events: TraceEvent[] = [
        transition(null, 'INIT', 0),
        transition('INIT', 'CODE', 10, 1),
        { kind: 'agent_timeout', at: iso(50), agent: 'coder', timeout: 1, silentMs: 2000, action: 'restart_with_context' },
        { kind: 'agent_restarted', at: iso(51), agent: 'coder', attempt: 2, mode: 'continuation', stagedFiles: ['src/A.cs'] },
        transition('CODE', 'SUCCESS', 100, 1),
      ];
      for (const event of events) await store.appendEvent('run-otel', event);
      await exporter.flush();
      exporter.stop();

      const coder = otlp.spans.find((span) => span.name === 'invoke_agent coder');
      assert.ok(coder);
      assert.deepEqual(coder.events, [
        {
          name: 'agent_timeout',
          atMs: T0 + 50,
          attributes: {
            'gen_ai.agent.name': 'coder',
            'ironbees.timeout': 1,
            'ironbees.silent_ms': 2000,
            'ironbees.action': 'restart_with_context',
          },
        },
        {
          name: 'agent_restarted',
          atMs: T0 + 51,
          attributes: {
            'gen_ai.agent.name': 'coder',
            'ironbees.attempt': 2,
            'ironbees.mode': 'continuation',
            'ironbees.staged_files': ['src/A.cs'],
          },
        },
      ]);
      assert.deepEqual(
        otlp.spans.filter((span) => span !== coder).flatMap((span) => span.events),
        [],
      );
    });
  });
});
