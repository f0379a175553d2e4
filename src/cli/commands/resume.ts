// `ironbees resume <runId>`: continues a persisted run with the settings it was started with.

import { RunStore } from '../../core/workflow/store';
import { finishUnfinishedRewind } from '../../core/workflow/rewind';
import { RunOrchestrator } from '../../core/workflow/orchestrator';
import type { StepActorsFactory } from '../../core/workflow/orchestrator';
import { ConfigurationError } from '../../core/errors';
import { askStopWithoutModel } from '../approvals';
import { LinePrompter, PromptClosedError } from '../prompts';
import { isTty } from '../terminal';
import { ExitCode } from '../exit-codes';
import { TERMINAL_NODES } from '../../core/model';
import type { WorkflowContext } from '../../core/model';
import type { ResumeArgs } from '../args';
import { exitCodeForNode } from '../exit-codes';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { driveRun } from './drive';
import { announceDemo, disposeRuntime } from './run';
import type { RunExtras } from './run';
import { ToolApprovalRelay } from '../tool-approvals';
import { cliWorkspaceTrust } from '../workspace-trust';
import { phaseRuntimes } from './phase-runtimes';
import { notifierFromEnv, runNotifications, tapStates } from '../../core/runtime/notify';
import type { PhaseRuntimeBase } from './phase-runtimes';

export async function resumeCommand(
  ctx: CommandContext,
  args: ResumeArgs,
  extras: Pick<RunExtras, 'trusted' | 'states'> = {},
): Promise<number> {
  await checkWorkspace(args.workspace);
  // An unknown id is bad usage (exit 2), told before the key or dotnet are asked for.
  const store = new RunStore(ctx.deps.createHost(args.workspace, ctx.logger));
  // A rewind cut short is finished first: the run resumes from the state it left.
  await finishUnfinishedRewind(store, args.runId);
  const persisted = await store.load(args.runId);
  const node = persisted.codingState.currentNode;
  if (TERMINAL_NODES.includes(node)) {
    writeLine(ctx.io.stderr, `Run ${args.runId} already ended at ${node}; there is nothing to resume (see \`ironbees runs\`).`);
    return exitCodeForNode(node);
  }
  // The run keeps the model it started with: a run begun with --demo resumes with the demo model
  // without --demo being given again (--model is in the run's own context already).
  const demo = args.demo || persisted.codingState.metadata.modelProvider === 'demo';
  const trusted = extras.trusted ?? (await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: true }));
  const toolApprovals = new ToolApprovalRelay();
  // The run keeps the provider and model it was started with; the keys they need are checked now.
  const started = (persisted.machine as { context?: { workflow?: WorkflowContext } } | null)?.context?.workflow;
  const base: PhaseRuntimeBase = {
    trusted,
    demo,
    env: ctx.io.env,
    logger: ctx.logger,
    ...(started?.provider ? { provider: started.provider } : {}),
    ...(started?.model ? { model: started.model } : {}),
    ...(started?.fallback ? { fallback: started.fallback } : {}),
    ...(started?.minCallIntervalMs ? { minCallIntervalMs: started.minCallIntervalMs } : {}),
    ...(started?.target ? { engineTarget: started.target } : {}),
    sandbox: args.sandbox ?? started?.sandbox ?? 'auto',
  };
  const runtime = await ctx.deps
    .createRuntime({
      ...base,
      workspaceRoot: args.workspace,
      askToolApproval: toolApprovals.ask,
      // A run started with --parallel N goes on with its phases in worktrees.
      ...((started?.parallel ?? 1) > 1 ? { phaseRuntimes: phaseRuntimes(ctx, base) } : {}),
    })
    .catch((error: unknown) => {
      // Answering "stop" at an escalation needs no model: a missing key must not keep the run waiting.
      if (node === 'WAIT_HUMAN' && !args.yes && error instanceof ConfigurationError) return error;
      throw error;
    });
  if (runtime instanceof ConfigurationError) return stopWithoutModel(ctx, args, runtime);
  if (demo) announceDemo(ctx);
  // The same webhooks as `run`: sent in the background, awaited only at the end.
  const notifier = notifierFromEnv(args.notifyWebhook, ctx.io.env, ctx.logger);
  const notify = notifier ? runNotifications(notifier, args.yes) : null;
  try {
    return await driveRun(
      { io: ctx.io, colors: ctx.colors, lines: ctx.lines, orchestrator: runtime.orchestrator, toolApprovals },
      args,
      (signal) => {
        const states = runtime.orchestrator.resume(args.runId, signal);
        return tapStates(extras.states ? extras.states(states) : states, notify);
      },
    );
  } finally {
    await notifier?.settled();
    await disposeRuntime(ctx, runtime);
  }
}

/** A run waiting at its escalation when the model cannot be reached: the person may still stop it. */
async function stopWithoutModel(ctx: CommandContext, args: ResumeArgs, error: ConfigurationError): Promise<number> {
  writeLine(ctx.io.stderr, ctx.colors.yellow(error.message));
  const prompter = new LinePrompter({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: isTty(ctx.io.stdin) });
  try {
    const stop = await askStopWithoutModel({ prompter, show: (text) => writeLine(ctx.io.stderr, text), colors: ctx.colors });
    if (!stop) return ExitCode.USAGE;
  } catch (closed) {
    if (closed instanceof PromptClosedError) return ExitCode.USAGE;
    throw closed;
  } finally {
    prompter.close();
  }
  // Stopping a run that is not running here restarts no step: no step is needed at all.
  const noSteps = (() => ({})) as unknown as StepActorsFactory;
  await new RunOrchestrator(ctx.deps.createHost(args.workspace, ctx.logger), noSteps).cancel(args.runId);
  writeLine(ctx.io.stderr, `Run ${args.runId} stopped at the escalation.`);
  return exitCodeForNode('CANCELLED', true);
}
