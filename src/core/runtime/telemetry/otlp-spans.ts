// The OTLP export proper, loaded only when an endpoint is set (trace-export.ts): a run's events become
// OpenTelemetry spans after the GenAI semantic conventions — one per run (invoke_workflow), per step
// (invoke_agent for PLAN and CODE), per model call (chat) and per tool call (execute_tool) — sent as
// OTLP/HTTP JSON. Spans are made from the events with their own times (each event says when its work
// started and ended), so the export never sits on a run's path: a slow or absent collector costs a
// run nothing. The provider is private (not registered globally): the host's own tracing is untouched.

import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, RandomIdGenerator } from '@opentelemetry/sdk-trace-base';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { TERMINAL_NODES } from '../../model';
import type { WorkflowNode } from '../../model';
import type { TraceEvent, TurnEvent } from '../../trace';
import { traceIdOf } from '../../workflow/turn-trace';

/**
 * The GenAI attribute names (still "incubating" in @opentelemetry/semantic-conventions, whose own
 * advice is to copy those rather than bundle the incubating entry point); a unit test checks each
 * against the package's constant.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  system: 'gen_ai.system',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
} as const;

const AGENT_OF_STEP: Partial<Record<WorkflowNode, string>> = { PLAN: 'planner', CODE: 'coder' };

/** Root spans get the run's trace id (the `trace_id` of its turn events); everything else is random. */
class RunTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  next: string | null = null;
  generateTraceId(): string {
    const id = this.next ?? this.random.generateTraceId();
    this.next = null;
    return id;
  }
  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

interface RunSpans {
  run: Span;
  runContext: Context;
  step: Span | null;
  stepContext: Context | null;
  /** The node and iteration of the open step span. */
  stepKey: string | null;
  /**
   * Turns of a step whose transition has not come yet: a transition is written once the state is
   * saved, so a fast model's first turn can be recorded before it. Placed when their step opens.
   */
  early: TurnEvent[];
}

const keyOf = (node: WorkflowNode, iteration: number): string => `${node}#${iteration}`;

export interface OtlpSpansOptions {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  serviceVersion: string;
  /** Headers for the collector (from OTEL_EXPORTER_OTLP_HEADERS, read by the exporter itself when absent). */
  headers?: Record<string, string>;
}

export class OtlpRunSpans {
  private readonly ids = new RunTraceIds();
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly runs = new Map<string, RunSpans>();
  /** Sends one after another: a flush that found the buffer empty must still wait for the send in flight. */
  private sending: Promise<void> = Promise.resolve();

  constructor(options: OtlpSpansOptions) {
    const exporter = new OTLPTraceExporter({
      url: options.url,
      ...(options.headers ? { headers: options.headers } : {}),
      timeoutMillis: 5_000,
    });
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'ironbees', [ATTR_SERVICE_VERSION]: options.serviceVersion }),
      idGenerator: this.ids,
      // Sent when a run ends and at flush (send() below), not on a timer: each send is awaited in turn.
      spanProcessors: [
        new BatchSpanProcessor(exporter, { scheduledDelayMillis: 3_600_000, maxQueueSize: 20_000, maxExportBatchSize: 2_048 }),
      ],
    });
    this.tracer = this.provider.getTracer('ironbees', options.serviceVersion);
  }

  record(runId: string, event: TraceEvent): void {
    if (event.kind === 'transition') this.transition(runId, event.to, event.iteration, Date.parse(event.at));
    else if (event.kind === 'turn') {
      const spans = this.spansOf(runId, Date.parse(event.at) - event.timings.latency_ms);
      if (spans.stepKey === keyOf(event.step, event.iteration)) this.turn(spans, event);
      else spans.early.push(event);
    } else if (event.kind === 'agent_timeout' || event.kind === 'agent_restarted') {
      // The supervisor's acts, as events of the step span the agent works in (the run's when none is open).
      const spans = this.spansOf(runId, Date.parse(event.at));
      (spans.step ?? spans.run).addEvent(event.kind, supervisorAttributes(event), Date.parse(event.at));
    }
  }

  /** Ends what is still open (a run paused or stopped in this process) and sends everything. */
  async flush(): Promise<void> {
    const now = Date.now();
    for (const [runId, spans] of this.runs) {
      this.placeEarlyTurns(spans, true);
      spans.step?.end(now);
      spans.run.end(now);
      this.runs.delete(runId);
    }
    await this.send();
  }

  private send(): Promise<void> {
    // An unreachable collector is the exporter's to report (OpenTelemetry's diag log), never the run's.
    this.sending = this.sending.then(() => this.provider.forceFlush()).catch(() => undefined);
    return this.sending;
  }

  async shutdown(): Promise<void> {
    await this.flush();
    await this.provider.shutdown();
  }

  private spansOf(runId: string, startTime: number): RunSpans {
    const existing = this.runs.get(runId);
    if (existing) return existing;
    this.ids.next = traceIdOf(runId);
    const run = this.tracer.startSpan(
      'invoke_workflow ironbees',
      {
        kind: SpanKind.INTERNAL,
        startTime,
        attributes: {
          [GEN_AI.operationName]: 'invoke_workflow',
          [GEN_AI.workflowName]: 'ironbees',
          [GEN_AI.conversationId]: runId,
          'ironbees.run.id': runId,
        },
      },
      context.active(),
    );
    const spans: RunSpans = {
      run,
      runContext: trace.setSpan(context.active(), run),
      step: null,
      stepContext: null,
      stepKey: null,
      early: [],
    };
    this.runs.set(runId, spans);
    return spans;
  }

  private transition(runId: string, to: WorkflowNode, iteration: number, at: number): void {
    const spans = this.spansOf(runId, at);
    spans.step?.end(at);
    spans.step = null;
    spans.stepContext = null;
    spans.stepKey = null;
    if (TERMINAL_NODES.includes(to)) {
      this.placeEarlyTurns(spans, true);
      spans.run.setAttribute('ironbees.run.outcome', to);
      if (to === 'FAILED') spans.run.setStatus({ code: SpanStatusCode.ERROR, message: 'the run failed' });
      spans.run.end(at);
      this.runs.delete(runId);
      // Sent as each run ends, not only at exit.
      void this.send();
      return;
    }
    const agent = AGENT_OF_STEP[to];
    const attributes: Attributes = { 'ironbees.step': to, 'ironbees.iteration': iteration };
    if (agent) Object.assign(attributes, { [GEN_AI.operationName]: 'invoke_agent', [GEN_AI.agentName]: agent });
    spans.step = this.tracer.startSpan(
      agent ? `invoke_agent ${agent}` : `step ${to}`,
      { kind: SpanKind.INTERNAL, startTime: at, attributes },
      spans.runContext,
    );
    spans.stepContext = trace.setSpan(spans.runContext, spans.step);
    spans.stepKey = keyOf(to, iteration);
    this.placeEarlyTurns(spans, false);
  }

  /** The early turns of the step just opened; with `all`, every one left (under the run when no step matches). */
  private placeEarlyTurns(spans: RunSpans, all: boolean): void {
    const now = spans.early.filter((turn) => all || keyOf(turn.step, turn.iteration) === spans.stepKey);
    spans.early = spans.early.filter((turn) => !now.includes(turn));
    for (const turn of now) this.turn(spans, turn);
  }

  private turn(spans: RunSpans, turn: TurnEvent): void {
    const parent = spans.stepContext ?? spans.runContext;
    const started = Date.parse(turn.at) - turn.timings.latency_ms;
    const modelEnded = started + turn.timings.model_ms;
    const chat = this.tracer.startSpan(
      `chat ${turn.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: started,
        attributes: {
          [GEN_AI.operationName]: 'chat',
          [GEN_AI.system]: turn.provider,
          [GEN_AI.providerName]: turn.provider,
          [GEN_AI.requestModel]: turn.model,
          [GEN_AI.responseModel]: turn.model,
          [GEN_AI.finishReasons]: [turn.stop_reason],
          [GEN_AI.inputTokens]: turn.tokens.input,
          [GEN_AI.outputTokens]: turn.tokens.output,
          [GEN_AI.cacheReadTokens]: turn.tokens.cache_read,
          [GEN_AI.agentName]: turn.role,
          'ironbees.turn': turn.turn,
          'ironbees.turn.intent': turn.intent,
          'ironbees.turn.outcome': turn.outcome.status,
        },
      },
      parent,
    );
    if (turn.outcome.status === 'failed') chat.setStatus({ code: SpanStatusCode.ERROR, message: turn.outcome.error ?? 'failed' });
    chat.end(modelEnded);
    // The loop runs a turn's calls one after another, in the order they are listed.
    let toolStarted = modelEnded;
    for (const call of turn.tool_calls) {
      const tool = this.tracer.startSpan(
        `execute_tool ${call.tool_call.name}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: toolStarted,
          attributes: {
            [GEN_AI.operationName]: 'execute_tool',
            [GEN_AI.toolName]: call.tool_call.name,
            [GEN_AI.agentName]: turn.role,
            'ironbees.tool.args_valid': call.tool_call.args_valid,
            ...(call.tool_result.ok ? {} : { [ATTR_ERROR_TYPE]: call.tool_result.err }),
          },
        },
        parent,
      );
      if (!call.tool_result.ok) tool.setStatus({ code: SpanStatusCode.ERROR, message: call.tool_result.err });
      toolStarted += call.latency_ms;
      tool.end(toolStarted);
    }
  }
}

type SupervisorEvent = Extract<TraceEvent, { kind: 'agent_timeout' | 'agent_restarted' }>;

function supervisorAttributes(event: SupervisorEvent): Attributes {
  if (event.kind === 'agent_timeout') {
    return {
      [GEN_AI.agentName]: event.agent,
      'ironbees.timeout': event.timeout,
      'ironbees.silent_ms': event.silentMs,
      'ironbees.action': event.action,
    };
  }
  return {
    [GEN_AI.agentName]: event.agent,
    'ironbees.attempt': event.attempt,
    'ironbees.mode': event.mode,
    'ironbees.staged_files': event.stagedFiles,
  };
}
