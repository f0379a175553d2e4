// Phases that each compiled in their own worktree can still not compile together (one renames what
// another calls). Their merged change is compiled in memory as a coder's submission is, before the
// person reviews it: errors are listed in the summary the person reads, and the final validation's
// build decides, as for a submission the compile gate let through with errors left.

import type { CodeCheckResult, Host } from '../host';
import type { FileEdit } from '../model';
import { changedSources, errorLine } from '../csharp/engine/code-checker';
import { EngineUnavailableError } from '../csharp/engine/errors';

/** The merged change's compile errors as a note for its summary; null when it compiles or cannot be checked. */
export async function mergedCompileNote(host: Host, edits: readonly FileEdit[], signal?: AbortSignal): Promise<string | null> {
  if (!host.codeCheck) return null;
  const merged = new Map(edits.map((edit) => [edit.filePath, edit.newContent]));
  const { files, unchecked: buildInputs } = await changedSources(merged.keys(), (rel) => merged.get(rel) ?? null);
  if (files.length === 0) return null;
  let result: CodeCheckResult;
  try {
    result = await host.codeCheck.check(files, { signal, buildInputs });
  } catch (error) {
    if (error instanceof EngineUnavailableError) return null;
    throw error;
  }
  if (result.total === 0) return null;
  return `The phases' merged change does not compile (each phase compiled on its own); ${result.total} error(s):\n${result.errors.map(errorLine).join('\n')}`;
}
