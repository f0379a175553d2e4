// `ironbees run "<request>"`: checks the setup, starts a run and follows it to its end.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkflowContext } from '../../core/model';
import { ConfigurationError } from '../../core/errors';
import type { RunArgs } from '../args';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { driveRun } from './drive';
import { ToolApprovalRelay } from '../tool-approvals';

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
    approval: { plan: args.planApproval, diffs: args.diffApproval },
    timeouts: { buildMs: args.buildTimeoutMs, testMs: args.testTimeoutMs },
    ...(target ? { target } : {}),
  };
}

export function announceDemo(ctx: CommandContext): void {
  writeLine(ctx.io.stderr, ctx.colors.magenta('DEMO MODE: a scripted demo model answers instead of Anthropic (no API key, no cost); dotnet runs for real.'));
}

export async function runCommand(ctx: CommandContext, args: RunArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const target = args.target ? await resolveTarget(args.workspace, args.target) : undefined;
  const toolApprovals = new ToolApprovalRelay();
  const runtime = await ctx.deps.createRuntime({ workspaceRoot: args.workspace, demo: args.demo, env: ctx.io.env, logger: ctx.logger, askToolApproval: toolApprovals.ask });
  if (args.demo) announceDemo(ctx);
  const context = workflowContextFor(args, target);
  return driveRun({ io: ctx.io, colors: ctx.colors, orchestrator: runtime.orchestrator, toolApprovals }, args, (signal) =>
    runtime.orchestrator.execute(args.request, context, signal),
  );
}
