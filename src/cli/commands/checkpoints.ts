// `ironbees checkpoints <runId>` lists a run's checkpoints; `ironbees rewind <runId> <checkpoint>`
// gives the run's files a checkpoint's bytes and leaves the run waiting for guidance there
// (core/workflow/rewind.ts). A file someone else changed is refused (exit 2) unless --force.

import type { CheckpointSummary } from '../../core/workflow/checkpoint-store';
import { finishUnfinishedRewind, rewindRun, RewindConflictError } from '../../core/workflow/rewind';
import { acquireRunLock } from '../../core/workflow/run-lock';
import { RunStore } from '../../core/workflow/store';
import type { CheckpointsArgs, RewindArgs } from '../args';
import { ExitCode } from '../exit-codes';
import { writeJsonLine, writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';

export function renderCheckpoint(c: CheckpointSummary): string {
  const tests = c.tests.total > 0 ? `${c.tests.passed}/${c.tests.total} passed, ${c.tests.failed} failed` : 'no tests';
  return `${c.id.padEnd(4)} ${c.green ? 'green' : 'red  '} ${c.at.slice(0, 19).replace('T', ' ')}  ${c.label} · ${c.node} · iteration ${c.iteration} · ${tests} · ${c.files.length} file(s)${c.files.length ? `: ${c.files.join(', ')}` : ''}`;
}

export async function checkpointsCommand(ctx: CommandContext, args: CheckpointsArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const store = new RunStore(ctx.deps.createHost(args.workspace, ctx.logger));
  await finishUnfinishedRewind(store, args.runId);
  await store.load(args.runId);
  const list = await store.checkpoints.list(args.runId);
  for (const checkpoint of list) {
    if (args.json) {
      const { id, label, node, iteration, at, files, tests, green } = checkpoint;
      writeJsonLine(ctx.io.stdout, { id, label, node, iteration, at, files, tests, green });
    } else {
      writeLine(ctx.io.stdout, renderCheckpoint(checkpoint));
    }
  }
  if (!args.json && list.length === 0) writeLine(ctx.io.stdout, `Run ${args.runId} has no checkpoints yet.`);
  return ExitCode.SUCCESS;
}

export async function rewindCommand(ctx: CommandContext, args: RewindArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const host = ctx.deps.createHost(args.workspace, ctx.logger);
  // A run driven elsewhere right now would write over what the rewind puts back.
  const lock = acquireRunLock(host.workspaceRoot, args.runId);
  try {
    const report = await rewindRun(new RunStore(host), args.runId, args.checkpoint, { force: args.force });
    for (const file of report.restored) writeLine(ctx.io.stdout, `restored ${file}`);
    for (const file of report.deleted) writeLine(ctx.io.stdout, `deleted  ${file}`);
    writeLine(
      ctx.io.stdout,
      `Rewound run ${args.runId} to ${report.checkpoint.id} (${report.checkpoint.label}); it waits for guidance: ironbees resume ${args.runId} --guidance "…"`,
    );
    return ExitCode.SUCCESS;
  } catch (error) {
    if (!(error instanceof RewindConflictError)) throw error;
    writeLine(ctx.io.stderr, ctx.colors.red(`error: ${error.message}`));
    for (const file of error.files) writeLine(ctx.io.stderr, `changed by someone else: ${file}`);
    return ExitCode.USAGE;
  } finally {
    lock.release();
  }
}
