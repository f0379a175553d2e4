// Checkpoints and rewind for MCP clients (docs/contracts.md, "Checkpoints and rewind"): the same
// list and the same rewind as `ironbees checkpoints` and `ironbees rewind`. A file someone else
// changed since the run last wrote it is refused (named in the error) unless `force`.

import { z } from 'zod';
import type { Host } from '../core/host';
import { RewindConflictError, RunStore, acquireRunLock, rewindRun } from '../core/runtime/faces';
import type { ToolDefinition, ToolOutcome } from '../core/runtime/faces';

function json(value: unknown, summary: string): ToolOutcome {
  return { ok: true, content: JSON.stringify(value, null, 1), data: value, observation: { summary, keyFacts: {}, affordances: [] } };
}

export function checkpointTools(host: Host): ToolDefinition[] {
  const listInput = z.object({ runId: z.string().min(1) });
  const rewindInput = z.object({
    runId: z.string().min(1),
    checkpoint: z.string().min(1).describe('A checkpoint id, "plan", "iteration:N" or "last-green"'),
    force: z.boolean().default(false).describe('Overwrite files someone changed since the run last wrote them'),
  });
  return [
    {
      name: 'list_checkpoints',
      description: "A run's checkpoints: {id, label, node, iteration, at, files, tests: {total, passed, failed}, green}, oldest first.",
      input: listInput,
      readonly: true,
      timeoutMs: 10_000,
      async execute(raw) {
        const { runId } = raw as z.output<typeof listInput>;
        const store = new RunStore(host);
        await store.load(runId);
        const checkpoints = (await store.checkpoints.list(runId)).map(({ id, label, node, iteration, at, files, tests, green }) => ({
          id,
          label,
          node,
          iteration,
          at,
          files,
          tests,
          green,
        }));
        return json({ runId, checkpoints }, `Run ${runId} has ${checkpoints.length} checkpoint(s).`);
      },
    },
    {
      name: 'rewind',
      description:
        "Gives the files a run touched a checkpoint's bytes; the run then waits at WAIT_HUMAN for guidance (approve_run continue, after resuming it).",
      input: rewindInput,
      readonly: false,
      timeoutMs: 60_000,
      async execute(raw) {
        const input = raw as z.output<typeof rewindInput>;
        let lock: { release(): void };
        try {
          lock = acquireRunLock(host.workspaceRoot, input.runId);
        } catch (error) {
          return { ok: false, kind: 'Forbidden', error: error instanceof Error ? error.message : String(error) };
        }
        try {
          const report = await rewindRun(new RunStore(host), input.runId, input.checkpoint, { force: input.force });
          return json(
            {
              runId: input.runId,
              checkpoint: report.checkpoint.id,
              label: report.checkpoint.label,
              restored: report.restored,
              deleted: report.deleted,
              currentNode: 'WAIT_HUMAN',
            },
            `Run ${input.runId} rewound to ${report.checkpoint.id}.`,
          );
        } catch (error) {
          if (error instanceof RewindConflictError) return { ok: false, kind: 'Forbidden', error: error.message };
          throw error;
        } finally {
          lock.release();
        }
      },
    },
  ] as ToolDefinition[];
}
