// Where an editor runtime works and whether it runs a plan's phases at once (ironbees.parallel):
// apart from run-runtimes.ts so it is checked without an editor.

import type { IronbeesSettings } from './settings';
import type { ExtensionRuntime } from './runtime';
import type { PhaseRuntimeParts } from '../core/workflow/parallel-phases';

/**
 * Where a runtime works and what it builds for phases: one in another folder has no language server;
 * the folder's own, with "ironbees.parallel" > 1, builds a phase runtime for each phase's worktree
 * (never a phase runtime or a worktree run: their runs have no phases run at once).
 */
export function placement(
  settings: Pick<IronbeesSettings, 'parallel'>,
  elsewhere: string | undefined,
  phase: boolean,
  buildPhase: (workspace: string, parts?: PhaseRuntimeParts) => Promise<ExtensionRuntime>,
): { languageServer?: false; phase?: true; phaseRuntime?: (workspace: string, parts?: PhaseRuntimeParts) => Promise<ExtensionRuntime> } {
  return {
    ...(elsewhere ? { languageServer: false as const } : {}),
    ...(phase ? { phase: true as const } : {}),
    ...(!elsewhere && (settings.parallel ?? 1) > 1 ? { phaseRuntime: buildPhase } : {}),
  };
}
