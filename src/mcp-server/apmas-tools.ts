// The seven APMAS coordination tools, backed by the run store. Every tool takes an
// optional `runId` (the run the agent works for) and `agent` (its role; default "agent").

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ToolDefinition, ToolOutcome } from '../core/runtime/faces';
import type { CoordinationStore } from './coordination-store';

const scope = {
  runId: z.string().optional().describe('The Ironbees run this work belongs to (see start_run); default: the workspace'),
  agent: z.string().min(1).default('agent').describe('Your role, e.g. "coder" or "reviewer"'),
};
const strings = z.array(z.string()).default([]);

function done(summary: string, data?: unknown): ToolOutcome {
  return { ok: true, content: data === undefined ? summary : JSON.stringify(data, null, 1), ...(data === undefined ? {} : { data }) };
}

function tool<S extends z.ZodRawShape>(
  name: string,
  description: string,
  shape: S,
  readonly: boolean,
  run: (input: z.output<z.ZodObject<S & typeof scope>>) => Promise<ToolOutcome>,
): ToolDefinition {
  const input = z.object({ ...scope, ...shape });
  return {
    name,
    description,
    input,
    readonly,
    timeoutMs: 10_000,
    execute: (value) => run(value as z.output<typeof input>),
  } as ToolDefinition;
}

export interface ApmasHooks {
  /**
   * Escalates a run that is live in this process (RunOrchestrator.requestHelp); false when it is not
   * live here or not at a working step, and the request is only recorded.
   */
  requestHelp?(runId: string, reason: string): Promise<boolean>;
}

export function apmasTools(store: CoordinationStore, hooks: ApmasHooks = {}): ToolDefinition[] {
  const now = (): string => new Date().toISOString();
  return [
    tool(
      'apmas_heartbeat',
      'Signal that you are still working. Call every few minutes.',
      {
        status: z.enum(['working', 'thinking', 'writing']),
        progress: z.string().optional(),
        estimatedContextUsage: z.coerce.number().int().optional(),
      },
      false,
      async (i) => {
        await store.updateAgent(i.runId, i.agent, (r) => ({
          ...r,
          status: i.status,
          progress: i.progress ?? r.progress,
          lastHeartbeat: now(),
        }));
        return done('Heartbeat recorded');
      },
    ),
    tool(
      'apmas_report_status',
      'Report your current status and any artifacts created.',
      {
        status: z.enum(['working', 'done', 'blocked', 'needs_review', 'context_limit']),
        message: z.string(),
        artifacts: strings,
        blockedReason: z.string().optional(),
      },
      false,
      async (i) => {
        await store.updateAgent(i.runId, i.agent, (r) => ({
          ...r,
          status: i.status,
          message: i.message,
          artifacts: [...new Set([...r.artifacts, ...i.artifacts])],
        }));
        await store.appendMessage(i.runId, {
          id: randomUUID(),
          at: now(),
          from: i.agent,
          to: 'supervisor',
          type: `status:${i.status}`,
          content: i.blockedReason ? `${i.message} (blocked: ${i.blockedReason})` : i.message,
          artifacts: i.artifacts,
        });
        return done(`Status '${i.status}' recorded`);
      },
    ),
    tool(
      'apmas_checkpoint',
      'Save a checkpoint of your progress (persisted under .ironbees/), e.g. before the context runs out.',
      {
        summary: z.string(),
        completedItems: strings,
        pendingItems: strings,
        activeFiles: strings,
        notes: z.string().optional(),
      },
      false,
      async (i) => {
        const total = i.completedItems.length + i.pendingItems.length;
        const percent = total === 0 ? 0 : Math.round((100 * i.completedItems.length) / total);
        const file = await store.saveCheckpoint(i.runId, i.agent, {
          agent: i.agent,
          createdAt: now(),
          summary: i.summary,
          completedItems: i.completedItems,
          pendingItems: i.pendingItems,
          activeFiles: i.activeFiles,
          notes: i.notes ?? null,
          percentComplete: percent,
        });
        return done(`Checkpoint saved to ${file}: ${percent}% complete`);
      },
    ),
    tool(
      'apmas_get_context',
      "Get the coordination context: agents' states, checkpoints, messages and open escalations.",
      {
        include: z
          .array(z.enum(['agents', 'checkpoints', 'messages', 'escalations']))
          .default(['agents', 'checkpoints', 'messages', 'escalations']),
        messageLimit: z.coerce.number().int().min(1).max(500).default(50),
      },
      true,
      async (i) => {
        const out: Record<string, unknown> = {};
        if (i.include.includes('agents')) out.agents = await store.agents(i.runId);
        if (i.include.includes('checkpoints')) out.checkpoints = await store.checkpoints(i.runId);
        if (i.include.includes('messages')) out.messages = await store.messages(i.runId, i.messageLimit);
        if (i.include.includes('escalations')) out.escalations = await store.escalations(i.runId);
        return done('context', out);
      },
    ),
    tool(
      'apmas_send_message',
      "Send a message to another agent, or to 'all'.",
      {
        to: z.string().min(1),
        type: z.enum(['question', 'answer', 'info', 'request']),
        content: z.string().min(1),
      },
      false,
      async (i) => {
        await store.appendMessage(i.runId, { id: randomUUID(), at: now(), from: i.agent, to: i.to, type: i.type, content: i.content });
        return done(`Message sent to ${i.to}`);
      },
    ),
    tool(
      'apmas_request_help',
      'Request help when blocked: a person (an escalation of the run) or another agent.',
      {
        helpType: z.enum(['human', 'agent', 'clarification']),
        targetAgent: z.string().optional(),
        issue: z.string().min(1),
        context: z.string().optional(),
      },
      false,
      async (i) => {
        const message = {
          id: randomUUID(),
          at: now(),
          from: i.agent,
          to: i.helpType === 'agent' ? (i.targetAgent ?? 'all') : 'human',
          type: `help:${i.helpType}`,
          content: i.context ? `${i.issue}\n${i.context}` : i.issue,
        };
        await store.appendMessage(i.runId, message);
        await store.updateAgent(i.runId, i.agent, (r) => ({ ...r, status: 'blocked', message: i.issue }));
        if (i.helpType === 'agent') return done(`Help requested from ${message.to}`);
        await store.escalate(i.runId, message);
        const stopped = i.runId && hooks.requestHelp ? await hooks.requestHelp(i.runId, `${i.agent} asks: ${message.content}`) : false;
        return done(
          stopped
            ? `Escalated: run ${i.runId} stopped its current step and waits for a person (ESCALATE, then WAIT_HUMAN); the answer comes through approve_run (continue or stop).`
            : 'Escalated: a person will answer through the run (get_run_state shows it as an open escalation).',
        );
      },
    ),
    tool(
      'apmas_complete',
      'Signal that all your work is done, with a summary and the artifacts.',
      {
        summary: z.string().min(1),
        artifacts: strings,
      },
      false,
      async (i) => {
        await store.updateAgent(i.runId, i.agent, (r) => ({
          ...r,
          status: 'completed',
          summary: i.summary,
          completedAt: now(),
          artifacts: [...new Set([...r.artifacts, ...i.artifacts])],
        }));
        await store.appendMessage(i.runId, {
          id: randomUUID(),
          at: now(),
          from: i.agent,
          to: 'supervisor',
          type: 'done',
          content: i.summary,
          artifacts: i.artifacts,
        });
        return done('Completion recorded');
      },
    ),
  ];
}
