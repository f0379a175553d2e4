// `ironbees run "<request>"`: checks the setup, starts a run and follows it to its end.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CodingState, WorkflowContext } from '../../core/model';
import { ConfigurationError, errorMessage } from '../../core/errors';
import type { Runtime } from '../wiring';
import type { RunArgs } from '../args';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { driveRun } from './drive';
import { ToolApprovalRelay } from '../tool-approvals';
import { cliWorkspaceTrust } from '../workspace-trust';
import { notifierFromEnv, runNotifications, tapStates } from '../../core/runtime/notify';
import { phaseRuntimes } from './phase-runtimes';
import { GitRepo } from '../../core/workspace/git-worktrees';
import { worktreeBase } from '../../core/workflow/worktree-session';
import type { PhaseRuntimeBase } from './phase-runtimes';

/** --target as the workspace-relative path the workflow expects; it must exist inside the workspace. */
export async function resolveTarget(workspace: string, target: string): Promise<string> {
  const absolute = path.resolve(workspace, target);
  const relative = path.relative(workspace, absolute);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new ConfigurationError(`--target ${target} is not inside the workspace ${workspace}.`);
  }
  const stat = await fs.stat(absolute).catch(() => null);
  if (!stat) throw new ConfigurationError(`--target ${target} does not exist (looked for ${absolute}).`);
  return relative.split(path.sep).join('/');
}

export function workflowContextFor(args: RunArgs, target: string | undefined): WorkflowContext {
  return {
    workspaceRoot: args.workspace,
    maxIterations: args.maxIterations,
    ...(args.model ? { model: args.model } : {}),
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.demo ? { modelProvider: 'demo' } : args.provider ? { modelProvider: args.provider } : {}),
    approval: { plan: args.planApproval, diffs: args.diffApproval },
    timeouts: { buildMs: args.buildTimeoutMs, testMs: args.testTimeoutMs },
    ...(args.agentTimeoutMs ? { agentTimeoutMs: args.agentTimeoutMs } : {}),
    ...(target ? { target } : {}),
    ...(args.contextFiles?.length ? { contextFiles: args.contextFiles } : {}),
    ...(args.budget ? { budget: args.budget } : {}),
    ...(args.fallback ? { fallback: args.fallback } : {}),
    ...(args.minCallIntervalMs ? { minCallIntervalMs: args.minCallIntervalMs } : {}),
    ...(args.sandbox !== 'auto' ? { sandbox: args.sandbox } : {}),
    review: args.review,
    ...(args.parallel && args.parallel > 1 ? { parallel: args.parallel } : {}),
  };
}

/** Whatever the outcome (also after Ctrl-C, the run being persisted), nothing of ours keeps running. */
export async function disposeRuntime(ctx: CommandContext, runtime: Runtime): Promise<void> {
  try {
    await runtime.dispose?.();
  } catch (error) {
    ctx.logger.warn(`Could not stop the build servers: ${errorMessage(error)}`);
  }
}

export function announceDemo(ctx: CommandContext): void {
  writeLine(
    ctx.io.stderr,
    ctx.colors.magenta('DEMO MODE: a scripted demo model answers instead of Anthropic (no API key, no cost); dotnet runs for real.'),
  );
}

/** How a run in a worktree (worktree-run.ts) drives an ordinary run in its worktree. */
export interface RunExtras {
  /** The run id chosen before the run starts (it names the worktree and the branch). */
  runId?: string;
  /** The trust decided for the person's workspace, which the worktree is a copy of. */
  trusted?: boolean;
  /** Sees every state on its way to the person (the worktree's commits). */
  states?: (states: AsyncIterable<CodingState>) => AsyncIterable<CodingState>;
}

export async function runCommand(ctx: CommandContext, args: RunArgs, extras: RunExtras = {}): Promise<number> {
  await checkWorkspace(args.workspace);
  const target = args.target ? await resolveTarget(args.workspace, args.target) : undefined;
  for (const file of args.contextFiles ?? []) {
    if (!(await fs.stat(file).catch(() => null))?.isFile()) throw new ConfigurationError(`--context ${file} is not a file.`);
  }
  // Phases at once work in git worktrees: no repository (or no commit yet) is said now, nothing changed.
  if (args.parallel && args.parallel > 1)
    await worktreeBase(await GitRepo.open(ctx.deps.createHost(args.workspace, ctx.logger).process, args.workspace));
  const trusted = extras.trusted ?? (await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true }));
  const toolApprovals = new ToolApprovalRelay();
  const base: PhaseRuntimeBase = {
    trusted,
    demo: args.demo,
    env: ctx.io.env,
    logger: ctx.logger,
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.fallback ? { fallback: args.fallback } : {}),
    ...(args.minCallIntervalMs ? { minCallIntervalMs: args.minCallIntervalMs } : {}),
    sandbox: args.sandbox,
  };
  const runtime = await ctx.deps.createRuntime({
    ...base,
    workspaceRoot: args.workspace,
    askToolApproval: toolApprovals.ask,
    target: target ?? null,
    ...(args.parallel && args.parallel > 1 ? { phaseRuntimes: phaseRuntimes(ctx, base) } : {}),
  });
  if (args.demo) announceDemo(ctx);
  // The run builds what was found now, even if another solution appears in the workspace later.
  const context = workflowContextFor(args, runtime.target ?? target);
  // --notify-webhook (or IRONBEES_NOTIFY_WEBHOOK): sent in the background, awaited only at the end.
  const notifier = notifierFromEnv(args.notifyWebhook, ctx.io.env, ctx.logger);
  const notify = notifier ? runNotifications(notifier, args.yes) : null;
  try {
    return await driveRun(
      { io: ctx.io, colors: ctx.colors, lines: ctx.lines, orchestrator: runtime.orchestrator, toolApprovals },
      args,
      (signal) => {
        const states = runtime.orchestrator.execute(args.request, context, signal, extras.runId);
        return tapStates(extras.states ? extras.states(states) : states, notify);
      },
    );
  } finally {
    await notifier?.settled();
    await disposeRuntime(ctx, runtime);
  }
}
