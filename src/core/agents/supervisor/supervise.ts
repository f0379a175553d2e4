// The supervisor: runs an agent (an AgentUnit) under a watchdog and applies the timeout policy
// (policy.ts) when the agent falls silent: restart with a continuation context, then restart fresh
// on a reduced scope, then stop the step for a person (an AgentModeError the workflow escalates).
// Each timeout and restart goes to the run's trace (events.jsonl: `agent_timeout`,
// `agent_restarted`) and its live activity, and, when the run keeps coordination records (the APMAS
// records `ironbees mcp` serves), to those: the agent's status and heartbeat, its checkpoint, a message.

import type { ActivityReport } from '../../activity';
import { AgentModeError } from '../../errors';
import { EMPTY_USAGE, addUsage } from '../../model';
import type { Usage } from '../../model';
import type { AgentRuntime } from '../types';
import type { AgentUnit } from '../unit';
import { SupervisedAttempt } from './attempt';
import { actionAfterTimeout, continuationContext, escalationReason, reducedScopeContext } from './policy';
import type { AgentProgress } from './policy';
import type { SupervisionRecords } from './records';
import { HeartbeatRecorder } from './records';

/** The error code of a step stopped after its agent's last timeout: the workflow escalates it. */
export const AGENT_TIMEOUT_CODE = 'AGENT_TIMEOUT';

export interface SupervisedRun<I, O> {
  unit: AgentUnit<I, O>;
  runtime: AgentRuntime;
  input: I;
  /** How long the agent may be silent (policy.ts silenceLimitMs). */
  silenceMs: number;
  /** The files the agent has staged so far (the coder's overlay); none when absent. */
  stagedFiles?: () => Promise<string[]>;
  /** The input of a fresh start on what remains, and what remains said for the agent (null: the same task). */
  reduceScope?: (input: I, stagedFiles: readonly string[]) => { input: I; remaining: string | null };
  /** The run's coordination records; absent when nothing keeps them. */
  records?: SupervisionRecords;
}

export async function supervise<I, O>(run: SupervisedRun<I, O>): Promise<O> {
  const { unit, runtime } = run;
  const agent = unit.name;
  const now = (): string => new Date(runtime.host.clock.now()).toISOString();
  const heartbeat = new HeartbeatRecorder(
    agent,
    run.records,
    () => runtime.host.clock.now(),
    (message) => runtime.host.logger.warn(message),
  );
  const silentSeconds = run.silenceMs / 1000;
  let spent: Usage = EMPTY_USAGE;
  let input = run.input;
  let continuation: string | undefined;
  let timeouts = 0;
  let notice: ActivityReport | undefined;
  await heartbeat.status({ status: 'working', progress: 'started' });
  for (;;) {
    const attempt = new SupervisedAttempt(runtime, run.silenceMs, () => heartbeat.beat());
    try {
      const output = await unit.run(attempt.runtime(continuation, notice), input);
      attempt.stop();
      const staged = await stagedOf(run);
      await heartbeat.status({ status: 'completed', completed: true, artifacts: staged, ...summaryOf(output) });
      return withUsage(output, spent);
    } catch (error) {
      attempt.stop();
      if (!attempt.timedOut || runtime.signal?.aborted) {
        if (!runtime.signal?.aborted) await heartbeat.status({ status: 'failed', message: messageOf(error) });
        throw error;
      }
      spent = addUsage(spent, attempt.usage);
      timeouts += 1;
      const action = actionAfterTimeout(timeouts);
      const progress: AgentProgress = { done: attempt.done, stagedFiles: await stagedOf(run), lastWords: attempt.lastWords };
      runtime.trace?.record({ kind: 'agent_timeout', at: now(), agent, timeout: timeouts, silentMs: run.silenceMs, action });
      await recordTimeout(run, heartbeat, progress, timeouts, action, now());
      if (action === 'escalate') {
        const reason = escalationReason(agent, silentSeconds, timeouts, progress.stagedFiles);
        runtime.activity?.emit({ kind: 'tool', agent, turn: 0, tool: 'supervisor', line: `stopped: ${reason}`, ok: false });
        await heartbeat.status({ status: 'escalated', message: reason });
        throw new AgentModeError(reason, AGENT_TIMEOUT_CODE, { agent, timeouts, usage: spent });
      }
      let remaining: string | null = null;
      if (action === 'restart_with_context') {
        continuation = continuationContext(agent, silentSeconds, progress);
      } else {
        const reduced = run.reduceScope?.(run.input, progress.stagedFiles);
        if (reduced) input = reduced.input;
        remaining = reduced?.remaining ?? null;
        continuation = reducedScopeContext(agent, silentSeconds, progress.stagedFiles, remaining);
      }
      const mode = action === 'restart_with_context' ? 'continuation' : 'reduced_scope';
      runtime.trace?.record({ kind: 'agent_restarted', at: now(), agent, attempt: timeouts + 1, mode, stagedFiles: progress.stagedFiles });
      notice = {
        kind: 'tool',
        agent,
        turn: 1,
        tool: 'supervisor',
        line: `silent for ${silentSeconds} s: stopped and restarted (${mode === 'continuation' ? 'with its progress' : 'fresh, on what remains'}; attempt ${timeouts + 1})`,
        ok: false,
      };
      await heartbeat.status({ status: 'working', progress: `restarted (${mode}, attempt ${timeouts + 1})` });
    }
  }
}

async function recordTimeout<I, O>(
  run: SupervisedRun<I, O>,
  heartbeat: HeartbeatRecorder,
  progress: AgentProgress,
  timeouts: number,
  action: string,
  at: string,
): Promise<void> {
  const agent = run.unit.name;
  await heartbeat.status({
    status: 'timed_out',
    message: `silent for ${run.silenceMs / 1000} s (timeout ${timeouts})`,
    artifacts: progress.stagedFiles,
  });
  await heartbeat.write((records) =>
    records.checkpoint(agent, {
      agent,
      createdAt: at,
      summary: `Stopped after ${run.silenceMs / 1000} s of silence (timeout ${timeouts}); next: ${action}.`,
      completedItems: progress.done,
      pendingItems: [],
      activeFiles: progress.stagedFiles,
      notes: progress.lastWords || null,
    }),
  );
  await heartbeat.write((records) =>
    records.message({
      from: 'supervisor',
      to: agent,
      type: `timeout:${action}`,
      content: `silent for ${run.silenceMs / 1000} s`,
      artifacts: progress.stagedFiles,
    }),
  );
}

async function stagedOf<I, O>(run: SupervisedRun<I, O>): Promise<string[]> {
  return run.stagedFiles ? [...(await run.stagedFiles())].sort() : [];
}

function withUsage<O>(output: O, spent: Usage): O {
  if (spent === EMPTY_USAGE || typeof output !== 'object' || output === null || !('usage' in output)) return output;
  return { ...output, usage: addUsage((output as { usage: Usage }).usage, spent) };
}

function summaryOf(output: unknown): { summary?: string } {
  const summary = typeof output === 'object' && output !== null ? (output as { summary?: unknown }).summary : undefined;
  return typeof summary === 'string' ? { summary } : {};
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
