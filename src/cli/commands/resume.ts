// `ironbees resume <runId>`: continues a persisted run with the settings it was started with.

import { RunStore } from '../../core/workflow/store';
import type { ResumeArgs } from '../args';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { driveRun } from './drive';
import { announceDemo } from './run';

export async function resumeCommand(ctx: CommandContext, args: ResumeArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  // An unknown id is bad usage (exit 2), told before the key or dotnet are asked for.
  await new RunStore(ctx.deps.createHost(args.workspace, ctx.logger)).load(args.runId);
  const runtime = await ctx.deps.createRuntime({ workspaceRoot: args.workspace, demo: args.demo, env: ctx.io.env, logger: ctx.logger });
  if (args.demo) announceDemo(ctx);
  return driveRun({ io: ctx.io, colors: ctx.colors, orchestrator: runtime.orchestrator }, args, (signal) =>
    runtime.orchestrator.resume(args.runId, signal),
  );
}
