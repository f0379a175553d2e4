// `ironbees runs`: the runs of a workspace, as a table for people or JSON lines for tools.

import { EMPTY_USAGE, TERMINAL_NODES, addUsage } from '../../core/model';
import type { RunSummary } from '../../core/trace';
import { RunStore } from '../../core/workflow/store';
import { isActive, isWorktreeRun, listRecords } from '../../core/workflow/worktree-runs';
import type { RunsArgs } from '../args';
import { formatUsage } from '../render/state';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';

const REQUEST_WIDTH = 48;

function shorten(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > width ? `${oneLine.slice(0, width - 1)}…` : oneLine;
}

/** ISO time to minutes, UTC, as the runs folder names are. */
function when(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** The end node, or REVERTED once a finished run's changes were put back (as the panel's history says). */
function stateOf(run: RunSummary): string {
  return run.revertedAt !== undefined && TERMINAL_NODES.includes(run.currentNode) ? 'REVERTED' : run.currentNode;
}

/** Phases complete of the plan's, and any stopped in error; a column only when some run has a plan in phases. */
function phasesOf(run: RunSummary): string {
  const phases = run.phases;
  if (!phases) return '-';
  return `${phases.complete}/${phases.total}${phases.error ? ` (${phases.error} error)` : ''}`;
}

export function renderRunsTable(runs: readonly RunSummary[]): string {
  const phased = runs.some((r) => (r.phases?.total ?? 0) > 1);
  const header = ['RUN', 'STATE', 'ITER', ...(phased ? ['PHASES'] : []), 'TOKENS IN/OUT', 'COST', 'UPDATED (UTC)', 'REQUEST'];
  const rows = runs.map((r) => [
    r.runId,
    stateOf(r),
    `${r.iterationCount}/${r.maxIterations}`,
    ...(phased ? [phasesOf(r)] : []),
    `${r.usage.inputTokens}/${r.usage.outputTokens}`,
    `$${r.usage.costUsd.toFixed(4)}`,
    when(r.updatedAt),
    shorten(r.userRequest, REQUEST_WIDTH),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const format = (row: string[]): string =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)].join('\n');
}

export async function runsCommand(ctx: CommandContext, args: RunsArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const runs = await withWorktreeRuns(ctx, args.workspace, await new RunStore(ctx.deps.createHost(args.workspace, ctx.logger)).list());
  if (args.json) {
    for (const run of runs) writeLine(ctx.io.stdout, JSON.stringify(run));
    return 0;
  }
  if (runs.length === 0) {
    writeLine(ctx.io.stderr, `No runs in ${args.workspace}.`);
    return 0;
  }
  writeLine(ctx.io.stdout, renderRunsTable(runs));
  const total = runs.reduce((sum, r) => addUsage(sum, r.usage), EMPTY_USAGE);
  writeLine(ctx.io.stderr, `${runs.length} run${runs.length === 1 ? '' : 's'} · ${formatUsage(total)}`);
  return 0;
}

/** The runs at work in worktrees of their own beside the others (read in their worktree), each marked with its branch. */
async function withWorktreeRuns(ctx: CommandContext, workspace: string, runs: RunSummary[]): Promise<RunSummary[]> {
  const records = listRecords(workspace);
  if (records.length === 0) return runs;
  const listed = new Set(runs.map((r) => r.runId));
  const active: RunSummary[] = [];
  for (const record of records.filter((r) => isActive(r) && !listed.has(r.runId))) {
    const own = (await new RunStore(ctx.deps.createHost(record.workspace, ctx.logger)).list()).find((r) => r.runId === record.runId);
    if (own) active.push(own);
  }
  // A `--parallel` run's integration worktree has the run's id, but that run worked in the working tree.
  const byId = new Map(records.filter(isWorktreeRun).map((r) => [r.runId, r]));
  return [...runs, ...active]
    .map((run) => {
      const record = byId.get(run.runId);
      return record ? { ...run, worktree: { branch: record.branch, active: isActive(record) } } : run;
    })
    .sort((a, b) => a.runId.localeCompare(b.runId));
}
