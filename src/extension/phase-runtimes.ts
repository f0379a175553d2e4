// "ironbees.parallel" > 1 in the editor: the runtime of each phase that runs in a worktree of its own
// (core/workflow/parallel-phases.ts), built like the folder's, in the phase's worktree, with no
// language server (none watches a worktree). Its end stops that worktree's build servers (its own
// handshake salt) and its MCP servers; never the process's other build servers or lingering groups
// (the editor's process runs the other phases and the person's own builds).

import type { Host, Logger } from '../core/host';
import { errorMessage } from '../core/errors';
import { shutdownBuildServers } from '../core/runtime/faces';
import type { OpenPhaseRuntime, PhaseRuntime, PhaseRuntimeParts } from '../core/workflow/parallel-phases';

/** What a phase needs of the runtime built for its worktree (runtime.ts's ExtensionRuntime has it). */
export interface WorktreeRuntime {
  host: Host;
  orchestrator: Pick<PhaseRuntime, 'execute'>;
  close(): Promise<void>;
}

export function openPhaseRuntimes(
  build: (workspace: string, parts?: PhaseRuntimeParts) => Promise<WorktreeRuntime>,
  logger: Logger,
): OpenPhaseRuntime {
  return async (workspace: string, parts?: PhaseRuntimeParts): Promise<PhaseRuntime> => {
    const runtime = await build(workspace, parts);
    return {
      execute: (request, context, signal, runId) => runtime.orchestrator.execute(request, context, signal, runId),
      dispose: async () => {
        try {
          await shutdownBuildServers(runtime.host);
        } catch (error) {
          logger.warn(`Could not stop a phase's build servers: ${errorMessage(error)}`);
        }
        await runtime.close().catch((error: unknown) => logger.warn(`Stopping a phase's MCP servers: ${errorMessage(error)}`));
      },
    };
  };
}
