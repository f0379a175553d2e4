// A restore started before it is needed: a phase's fresh worktree (`--parallel N`) has no restore
// output, so its first validation would restore and build the whole target. Restored while its coder
// works, that validation finds every project restored (session.ts: isRestored) and builds only what
// the change affects. The restore is tracked (build-tracker.ts), so a C# engine started meanwhile
// waits for it instead of loading projects without their packages; once it is done the engine starts
// loading, while the coder still thinks, and the compile check at submit_changes finds it ready. Then
// what a change of the phase's planned files would build is built once (all of the target when the plan
// names none): the worktree's build servers start, and those outputs become the worktree's own (a project
// with references compiles again in a new folder: its compile inputs hash their absolute paths), so the
// first validation builds only the changed projects. Not the whole target: a phase's coder rarely leaves
// its plan, and building the rest would take the machine from the other phases.

import type { Host } from '../host';
import { trackRestore } from './build-tracker';
import { restoreAlone } from './build';
import { findBuildTarget } from './target';
import { buildAhead } from './validator';

/** Restores the build target (`target`, else the one found); false when the restore failed (the next build says why). */
async function restoreAhead(host: Host, target: string | undefined, timeoutMs: number): Promise<boolean> {
  const found = await findBuildTarget(host, target);
  const restored = await restoreAlone({ host, timeoutMs }, found.absPath);
  return restored.exitCode === 0 && !restored.timedOut;
}

/** Set IRONBEES_PHASE_ENGINE_AHEAD=0 to load a phase's C# engine only at its first check. */
function engineAhead(): boolean {
  return process.env.IRONBEES_PHASE_ENGINE_AHEAD !== '0';
}

/** Set IRONBEES_PHASE_BUILD_AHEAD=0 to leave a phase's first build to its first validation. */
function buildAheadEnabled(): boolean {
  return process.env.IRONBEES_PHASE_BUILD_AHEAD !== '0';
}

/**
 * A fresh worktree made ready for its run while its coder works: restored (tracked), then its C# engine
 * loading and what a change of the `planned` files builds, built (validator.ts buildAhead). Never
 * rejects; the first validation waits for it, and only then writes the change.
 */
export async function prepareWorktree(
  host: Host,
  target: string | undefined,
  timeoutMs: number,
  planned: readonly string[] = [],
): Promise<void> {
  const restored = await trackRestore(host.workspaceRoot, restoreAhead(host, target, timeoutMs)).catch(() => false);
  // A failed restore is the first validation's to report; nothing loads or builds without packages.
  if (!restored) return;
  if (engineAhead()) host.codeCheck?.warmUp?.();
  if (buildAheadEnabled())
    await buildAhead({ host, target, timeouts: { buildMs: timeoutMs, testMs: timeoutMs } }, planned).catch(() => false);
}
