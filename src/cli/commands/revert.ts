// `ironbees revert <runId>`: puts back every file the run changed, and says which.

import { RunStore } from '../../core/workflow/store';
import type { RevertArgs } from '../args';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';

export async function revertCommand(ctx: CommandContext, args: RevertArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const report = await new RunStore(ctx.deps.createHost(args.workspace, ctx.logger)).journal.revert(args.runId);
  const out = (text: string): void => writeLine(ctx.io.stdout, text);
  if (report.restored.length === 0 && report.deleted.length === 0) {
    out(`Run ${args.runId} changed no files; nothing to revert.`);
    return 0;
  }
  for (const file of report.restored) out(`restored ${file}`);
  for (const file of report.deleted) out(`deleted  ${file}`);
  out(`Reverted run ${args.runId}: ${report.restored.length} restored, ${report.deleted.length} deleted.`);
  return 0;
}
