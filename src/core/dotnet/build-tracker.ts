// What the C# engine needs to know about the real builds of a workspace, process-wide and keyed by
// the workspace root (the engine's client asks through the Host adapters; the csharp layer does not
// import this one):
// - whether a restore runs now (a `dotnet build` that restores), so the engine loads its projects
//   after it instead of racing it: a project loaded mid-restore has no package references, and
//   every file using a package would look broken;
// - which projects the latest build reported errors in: where the build itself fails, errors the
//   engine sees on disk may be real; anywhere else they are the engine's own blind spots.

import * as path from 'node:path';

const running = new Map<string, Set<Promise<unknown>>>();

function keyOf(workspaceRoot: string): string {
  return path.resolve(workspaceRoot);
}

/** Marks a restore running in the workspace until `work` settles (whichever way); returns `work`. */
export function trackRestore<T>(workspaceRoot: string, work: Promise<T>): Promise<T> {
  const key = keyOf(workspaceRoot);
  let set = running.get(key);
  if (!set) {
    set = new Set();
    running.set(key, set);
  }
  const entry = work.then(
    () => undefined,
    () => undefined,
  );
  set.add(entry);
  void entry.then(() => {
    set.delete(entry);
    if (set.size === 0 && running.get(key) === set) running.delete(key);
  });
  return work;
}

/** True while a restore started through trackRestore runs in the workspace. */
export function restoreRunning(workspaceRoot: string): boolean {
  return (running.get(keyOf(workspaceRoot))?.size ?? 0) > 0;
}

/** Resolves once no tracked restore runs in the workspace (at once when none does). Never rejects. */
export async function restoresSettled(workspaceRoot: string): Promise<void> {
  const key = keyOf(workspaceRoot);
  for (let set = running.get(key); set && set.size > 0; set = running.get(key)) {
    await Promise.all([...set]);
  }
}

const failedProjects = new Map<string, string[]>();

/** Records the projects (workspace-relative project files) a finished build reported errors in. */
export function noteBuildErrors(workspaceRoot: string, errors: ReadonlyArray<{ project?: string }>): void {
  failedProjects.set(
    keyOf(workspaceRoot),
    [...new Set(errors.flatMap((error) => (error.project ? [error.project.replace(/\\/g, '/')] : [])))].sort(),
  );
}

/** The projects the latest build of the workspace reported errors in; null before any build here. */
export function projectsFailingToBuild(workspaceRoot: string): string[] | null {
  return failedProjects.get(keyOf(workspaceRoot)) ?? null;
}
