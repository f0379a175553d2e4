// `ironbees resume <runId>`: continues a persisted run with the settings it was started with.

import { RunStore } from '../../core/workflow/store';
import { TERMINAL_NODES } from '../../core/model';
import type { WorkflowContext } from '../../core/model';
import type { ResumeArgs } from '../args';
import { exitCodeForNode } from '../exit-codes';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { driveRun } from './drive';
import { announceDemo, disposeRuntime } from './run';
import { ToolApprovalRelay } from '../tool-approvals';
import { cliWorkspaceTrust } from '../workspace-trust';

export async function resumeCommand(ctx: CommandContext, args: ResumeArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  // An unknown id is bad usage (exit 2), told before the key or dotnet are asked for.
  const persisted = await new RunStore(ctx.deps.createHost(args.workspace, ctx.logger)).load(args.runId);
  const node = persisted.codingState.currentNode;
  if (TERMINAL_NODES.includes(node)) {
    writeLine(ctx.io.stderr, `Run ${args.runId} already ended at ${node}; there is nothing to resume (see \`ironbees runs\`).`);
    return exitCodeForNode(node);
  }
  // The run keeps the model it started with: a run begun with --demo resumes with the demo model
  // without --demo being given again (--model is in the run's own context already).
  const demo = args.demo || persisted.codingState.metadata.modelProvider === 'demo';
  const trusted = await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true });
  const toolApprovals = new ToolApprovalRelay();
  // The run keeps the provider and model it was started with; the keys they need are checked now.
  const started = (persisted.machine as { context?: { workflow?: WorkflowContext } } | null)?.context?.workflow;
  const runtime = await ctx.deps.createRuntime({
    workspaceRoot: args.workspace,
    trusted,
    demo,
    env: ctx.io.env,
    logger: ctx.logger,
    askToolApproval: toolApprovals.ask,
    ...(started?.provider ? { provider: started.provider } : {}),
    ...(started?.model ? { model: started.model } : {}),
    ...(started?.fallback ? { fallback: started.fallback } : {}),
    ...(started?.minCallIntervalMs ? { minCallIntervalMs: started.minCallIntervalMs } : {}),
    ...(started?.target ? { engineTarget: started.target } : {}),
    sandbox: args.sandbox ?? started?.sandbox ?? 'auto',
  });
  if (demo) announceDemo(ctx);
  try {
    return await driveRun({ io: ctx.io, colors: ctx.colors, lines: ctx.lines, orchestrator: runtime.orchestrator, toolApprovals }, args, (signal) =>
      runtime.orchestrator.resume(args.runId, signal),
    );
  } finally {
    await disposeRuntime(ctx, runtime);
  }
}
