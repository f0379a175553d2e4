// /metrics in Prometheus text (prom-client), on a registry of its own per server: runs by outcome,
// iterations, tokens, cost, step durations (between the transitions this server saw) and active runs.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CodingState, Usage, WorkflowNode } from '../core/model';
import { TERMINAL_NODES } from '../core/model';

export class ServeMetrics {
  readonly registry = new Registry();
  private readonly runs: Counter<'outcome'>;
  private readonly iterations: Counter;
  private readonly tokens: Counter<'kind'>;
  private readonly cost: Counter;
  private readonly steps: Histogram<'node'>;
  /** Per run: the node it is at, since when, and the usage already counted. */
  private readonly seen = new Map<string, { node: WorkflowNode; since: number; usage: Usage }>();

  constructor(activeRuns: () => number) {
    const registers = [this.registry];
    this.runs = new Counter({ name: 'ironbees_runs_total', help: 'Runs that ended, by outcome.', labelNames: ['outcome'], registers });
    this.iterations = new Counter({
      name: 'ironbees_iterations_total',
      help: 'Code → validate iterations of the runs that ended.',
      registers,
    });
    this.tokens = new Counter({ name: 'ironbees_tokens_total', help: 'Model tokens, by kind.', labelNames: ['kind'], registers });
    this.cost = new Counter({ name: 'ironbees_cost_usd_total', help: 'Model cost in US dollars (priced calls).', registers });
    this.steps = new Histogram({
      name: 'ironbees_step_duration_seconds',
      help: 'Time a run spent at a node, by node.',
      labelNames: ['node'],
      buckets: [0.1, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    });
    new Gauge({
      name: 'ironbees_active_runs',
      help: 'Runs this server is driving now.',
      registers,
      collect() {
        this.set(activeRuns());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'ironbees_process_' });
  }

  /** A run taken up again (resumed): what it spent before is not counted a second time. */
  track(state: CodingState, now = Date.now()): void {
    this.seen.set(state.stateId, { node: state.currentNode, since: now, usage: state.usage });
  }

  /** Every state a run driven here reaches. */
  observe(state: CodingState, now = Date.now()): void {
    const before = this.seen.get(state.stateId);
    const usage = state.usage;
    const counted = before?.usage;
    this.addUsage(usage, counted);
    if (before && before.node !== state.currentNode) {
      this.steps.observe({ node: before.node }, (now - before.since) / 1000);
    }
    const moved = !before || before.node !== state.currentNode;
    this.seen.set(state.stateId, { node: state.currentNode, since: moved ? now : before.since, usage });
    if (moved && TERMINAL_NODES.includes(state.currentNode)) {
      this.runs.inc({ outcome: state.currentNode.toLowerCase() });
      this.iterations.inc(state.iterationCount);
      this.seen.delete(state.stateId);
    }
  }

  private addUsage(usage: Usage, counted: Usage | undefined): void {
    const delta = (now: number, then: number | undefined): number => Math.max(0, now - (then ?? 0));
    this.tokens.inc({ kind: 'input' }, delta(usage.inputTokens, counted?.inputTokens));
    this.tokens.inc({ kind: 'output' }, delta(usage.outputTokens, counted?.outputTokens));
    this.tokens.inc({ kind: 'cache_read' }, delta(usage.cacheReadTokens, counted?.cacheReadTokens));
    this.tokens.inc({ kind: 'cache_write' }, delta(usage.cacheWriteTokens, counted?.cacheWriteTokens));
    this.cost.inc(delta(usage.costUsd, counted?.costUsd));
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
