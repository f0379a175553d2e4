// Run control for other MCP clients: start a run (it continues in this server's process), read its
// state, answer its gate, cancel it. The orchestrator is created on first use, so a client that only
// wants the C# tools needs neither an API key nor a model.

import { z } from 'zod';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_REVIEW_THRESHOLD } from '../core/model';
import type { ApprovalDecision, CodingState, WorkflowContext } from '../core/model';
import type { Logger } from '../core/host';
import { errorMessage } from '../core/errors';
import type { Orchestrator } from '../core/trace';
import type { ToolDefinition, ToolOutcome } from '../core/runtime/faces';
import type { CoordinationStore } from './coordination-store';

export interface RunControlDeps {
  workspaceRoot: string;
  orchestrator(): Promise<Orchestrator>;
  coordination: CoordinationStore;
  logger: Logger;
}

function json(value: unknown, summary: string): ToolOutcome {
  return { ok: true, content: JSON.stringify(value, null, 1), data: value, observation: { summary, keyFacts: {}, affordances: [] } };
}

/** What a client needs to decide, without the full originals of every diff. */
function compact(state: CodingState): Record<string, unknown> {
  return {
    stateId: state.stateId,
    currentNode: state.currentNode,
    iterationCount: state.iterationCount,
    maxIterations: state.maxIterations,
    plan: state.plan,
    codeDiffs: state.codeDiffs.map((d) => ({ filePath: d.filePath, type: d.type, diffText: d.diffText })),
    buildResult: state.buildResult,
    testResult: state.testResult,
    errorContext: state.errorContext,
    usage: state.usage,
    // Why a run waits for a person, and where its hand-off is.
    helpRequest: state.metadata.helpRequest ?? null,
    handoffPath: state.metadata.handoffPath ?? null,
  };
}

export function runTools(deps: RunControlDeps): ToolDefinition[] {
  const started = new Map<string, Promise<void>>();
  const startInput = z.object({
    request: z.string().min(1).describe('What the agent should do, e.g. "Fix the failing Calculator test"'),
    maxIterations: z.coerce.number().int().min(1).max(100).default(DEFAULT_MAX_ITERATIONS),
    planApproval: z.enum(['always', 'never']).default('always'),
    diffApproval: z.enum(['always', 'first', 'never']).default('always'),
    review: z
      .enum(['required', 'advisory', 'off'])
      .default('required')
      .describe('Whether a reviewer must pass the change (default required)'),
    reviewThreshold: z.coerce.number().int().min(1).max(10).default(DEFAULT_REVIEW_THRESHOLD),
    target: z.string().optional(),
  });
  const runIdInput = z.object({ runId: z.string().min(1) });
  const approveInput = z.object({
    runId: z.string().min(1),
    decision: z.enum(['approve', 'reject', 'continue', 'stop']),
    feedback: z.string().optional().describe('Why, for reject; guidance, for continue'),
    additionalIterations: z.coerce.number().int().min(1).max(20).default(2),
  });
  return [
    {
      name: 'start_run',
      description:
        'Starts an Ironbees run (plan → code → build and test) on the workspace; returns its runId once it has started. Poll get_run_state.',
      input: startInput,
      readonly: false,
      timeoutMs: 60_000,
      async execute(raw) {
        const input = raw as z.output<typeof startInput>;
        const orchestrator = await deps.orchestrator();
        const context: WorkflowContext = {
          workspaceRoot: deps.workspaceRoot,
          maxIterations: input.maxIterations,
          approval: { plan: input.planApproval, diffs: input.diffApproval },
          review: { mode: input.review, threshold: input.reviewThreshold },
          timeouts: { buildMs: 600_000, testMs: 600_000 },
          ...(input.target ? { target: input.target } : {}),
        };
        const iterator = orchestrator.execute(input.request, context)[Symbol.asyncIterator]();
        const first = await iterator.next();
        if (first.done) return { ok: false, kind: 'ToolBug', error: 'The run ended before it started.' };
        const runId = first.value.stateId;
        // The rest of the run goes on in the background; its states are persisted by the orchestrator.
        started.set(
          runId,
          (async () => {
            try {
              for (let next = await iterator.next(); !next.done; next = await iterator.next()) void next;
            } catch (error) {
              deps.logger.error(`run ${runId}: ${errorMessage(error)}`);
            }
          })(),
        );
        return json({ runId, currentNode: first.value.currentNode }, `Run ${runId} started.`);
      },
    },
    {
      name: 'get_run_state',
      description: 'The latest state of a run (currentNode, plan, diffs, build and test results, usage) and its open escalations.',
      input: runIdInput,
      readonly: true,
      timeoutMs: 10_000,
      async execute(raw) {
        const { runId } = raw as z.output<typeof runIdInput>;
        const state = await (await deps.orchestrator()).getState(runId);
        const escalations = await deps.coordination.escalations(runId);
        return json({ ...compact(state), escalations }, `Run ${runId} is at ${state.currentNode}.`);
      },
    },
    {
      name: 'approve_run',
      description:
        'Answers the gate a run waits at: approve or reject (plan or diffs, with feedback), continue (with guidance) or stop (after an escalation).',
      input: approveInput,
      readonly: false,
      timeoutMs: 30_000,
      async execute(raw) {
        const input = raw as z.output<typeof approveInput>;
        const decision: ApprovalDecision =
          input.decision === 'approve'
            ? { type: 'APPROVE' }
            : input.decision === 'reject'
              ? { type: 'REJECT', feedback: input.feedback ?? 'Rejected without a reason.' }
              : input.decision === 'continue'
                ? { type: 'CONTINUE', guidance: input.feedback ?? '', additionalIterations: input.additionalIterations }
                : { type: 'STOP' };
        await (await deps.orchestrator()).approve(input.runId, decision);
        await deps.coordination.clearEscalations(input.runId);
        return json({ runId: input.runId, decision: decision.type }, `${decision.type} sent to run ${input.runId}.`);
      },
    },
    {
      name: 'cancel_run',
      description: 'Cancels a run; it ends CANCELLED, persisted and resumable.',
      input: runIdInput,
      readonly: false,
      timeoutMs: 60_000,
      async execute(raw) {
        const { runId } = raw as z.output<typeof runIdInput>;
        await (await deps.orchestrator()).cancel(runId);
        await started.get(runId);
        return json({ runId, currentNode: 'CANCELLED' }, `Run ${runId} cancelled.`);
      },
    },
  ] as ToolDefinition[];
}
