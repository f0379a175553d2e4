// `ironbees trace <runId>`: the run's turns (events.jsonl's `turn` lines) and their summary, as text
// for people or JSON lines for tools (the turns as written, then one `summary` object).

import { groupBySteps, summarizeTurns, turnsOf } from '../../core/workflow/trace-summary';
import { RunStore } from '../../core/workflow/store';
import { workspaceHoldingRun } from '../../core/workflow/worktree-runs';
import type { TraceArgs } from '../args';
import { renderSteps, renderSummary } from '../render/trace';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';

export async function traceCommand(ctx: CommandContext, args: TraceArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  // A run at work in its own worktree is read there.
  const store = new RunStore(ctx.deps.createHost(workspaceHoldingRun(args.workspace, args.runId), ctx.logger));
  // Throws StateNotFoundError (exit 2, the run named) for a run that is not there.
  const run = await store.load(args.runId);
  const events = await store.events(args.runId);
  const turns = turnsOf(events);
  const summary = summarizeTurns(turns);
  if (args.json) {
    for (const turn of turns) writeLine(ctx.io.stdout, JSON.stringify(turn));
    writeLine(ctx.io.stdout, JSON.stringify({ kind: 'summary', runId: args.runId, currentNode: run.codingState.currentNode, ...summary }));
    return 0;
  }
  const out = (line: string): void => writeLine(ctx.io.stdout, line);
  out(ctx.colors.bold(`Run ${args.runId} · ${run.codingState.currentNode} · ${run.codingState.userRequest.replace(/\s+/g, ' ').trim()}`));
  if (turns.length === 0) {
    out('No turns recorded: the run made no model call, or was made before turns were traced.');
    return 0;
  }
  for (const line of renderSteps(groupBySteps(turns), ctx.colors)) out(line);
  out('');
  for (const line of renderSummary(summary)) out(line);
  // The turns of attempts rewound away stay above; where the run went back is said here.
  for (const e of events) {
    if (e.kind === 'rewind')
      out(
        `Rewound at ${e.at} to ${e.checkpoint} (${e.label}) from ${e.fromNode}, iteration ${e.fromIteration}${e.forced ? ', forced' : ''}`,
      );
  }
  return 0;
}
