// A restore started before it is needed: a phase's fresh worktree (`--parallel N`) has no restore
// output, so its first validation would restore and build the whole target. Restored while its coder
// works, that validation finds every project restored (session.ts: isRestored) and builds only what
// the change affects.

import type { Host } from '../host';
import { restoreEnv, runDotnet } from './dotnet-cli';
import { findBuildTarget } from './target';

/** Restores the build target (`target`, else the one found); its outcome is the next build's to see. */
export async function restoreAhead(host: Host, target: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const found = await findBuildTarget(host, target);
  await runDotnet(host, ['restore', found.absPath, '-nologo', '-tl:off'], {
    cwd: host.workspaceRoot,
    timeoutMs,
    ...(signal ? { signal } : {}),
    env: restoreEnv(),
  });
}
