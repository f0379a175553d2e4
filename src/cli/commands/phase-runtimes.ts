// `run --parallel N` (and the resume of such a run): the runtime of each phase that runs in a
// worktree of its own, made the way the run's own is (the same model settings, trust and sandbox),
// in the phase's worktree. Its end stops only that worktree's build servers: the other phases may be
// building. Nobody is asked about its tools (a phase's run has no person of its own).

import { errorMessage } from '../../core/errors';
import type { OpenPhaseRuntime, PhaseRuntime, PhaseRuntimeParts } from '../../core/workflow/parallel-phases';
import type { RuntimeOptions } from '../wiring';
import type { CommandContext } from './context';

export type PhaseRuntimeBase = Omit<RuntimeOptions, 'workspaceRoot' | 'askToolApproval' | 'target' | 'phaseRuntimes'>;

export function phaseRuntimes(ctx: CommandContext, base: PhaseRuntimeBase): OpenPhaseRuntime {
  return async (workspace: string, parts?: PhaseRuntimeParts): Promise<PhaseRuntime> => {
    const codeCheck = parts?.codeCheck;
    const runtime = await ctx.deps.createRuntime({
      ...base,
      workspaceRoot: workspace,
      phase: true,
      // The run's engine answers its compile checks: the phase's own loads only if a tool asks for it.
      ...(codeCheck ? { decorateHost: (host) => ({ ...host, codeCheck }) } : {}),
    });
    return {
      execute: (request, context, signal, runId) => runtime.orchestrator.execute(request, context, signal, runId),
      dispose: async () => {
        try {
          await runtime.dispose?.();
        } catch (error) {
          ctx.logger.warn(`Could not stop a phase's build servers: ${errorMessage(error)}`);
        }
      },
    };
  };
}
