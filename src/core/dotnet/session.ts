// What the validator remembers between iterations of one run, so each validation does only the work the
// change needs: the build target, the project graph, and whether packages are restored. Kept per Host
// (a WeakMap: it goes when the host goes) and per target.

import * as path from 'node:path';
import type { Host } from '../host';
import { BuiltAssemblies } from './built-assemblies';
import { changesBuildInputs, loadProjectGraph } from './project-graph';
import type { ProjectGraph } from './project-graph';
import { findBuildTarget } from './target';
import type { BuildTarget } from './target';

/** Build errors that mean "restore first", after which the same build usually succeeds. */
export const NEEDS_RESTORE_CODES = new Set(['NETSDK1004', 'NETSDK1005', 'NETSDK1047', 'NU1105']);

export class DotnetSession {
  private targetPromise: Promise<BuildTarget> | null = null;
  private graphPromise: Promise<ProjectGraph> | null = null;
  private restored = false;
  /** Project path → the tests that failed there in the latest validation (failing-first runs them first). */
  private readonly lastFailures = new Map<string, string[]>();
  private readonly lastDurations = new Map<string, number>();
  /** Where the builds put each project's assembly: its tests run from there, without MSBuild. */
  readonly assemblies = new BuiltAssemblies();

  constructor(
    private readonly host: Host,
    private readonly targetOption: string | undefined,
  ) {}

  target(): Promise<BuildTarget> {
    // A failed lookup is not cached: the person may fix the workspace and try again.
    this.targetPromise ??= findBuildTarget(this.host, this.targetOption).catch((error: unknown) => {
      this.targetPromise = null;
      throw error;
    });
    return this.targetPromise;
  }

  /** The project graph, read again when a changed file can alter it. */
  async graph(changedFiles: readonly string[] = []): Promise<ProjectGraph> {
    if (changedFiles.some(changesBuildInputs)) {
      this.graphPromise = null;
      this.targetPromise = null;
    }
    const target = await this.target();
    this.graphPromise ??= loadProjectGraph(this.host, target).catch((error: unknown) => {
      this.graphPromise = null;
      throw error;
    });
    return this.graphPromise;
  }

  /** True once this session restored, or when every project already has its restore output. */
  async isRestored(graph: ProjectGraph): Promise<boolean> {
    if (this.restored) return true;
    for (const project of graph.projects) {
      if (!(await this.host.fs.exists(path.join(project.dir, 'obj', 'project.assets.json')))) return false;
    }
    return true;
  }

  markRestored(restored: boolean): void {
    this.restored = restored;
  }

  /** Records what failed in each project that ran; projects that did not run keep what they had. */
  rememberFailures(failedByProject: ReadonlyMap<string, readonly string[]>): void {
    for (const [project, names] of failedByProject) {
      const real = names.filter((name) => !name.startsWith('[test run] '));
      if (real.length > 0) this.lastFailures.set(project, [...real]);
      else this.lastFailures.delete(project);
    }
  }

  /** Records how long each project's tests took (the hang budget gives a healthy run room by it). */
  rememberDurations(durationByProject: ReadonlyMap<string, number>): void {
    for (const [project, ms] of durationByProject) this.lastDurations.set(project, ms);
  }

  /** How long each project's tests took last time, as far as this session knows. */
  testDurations(): ReadonlyMap<string, number> {
    return this.lastDurations;
  }

  /** The previous validation's failing tests in these projects (only projects that had some). */
  previousFailures(projects: ReadonlyArray<{ absPath: string }>): Map<string, string[]> {
    const found = new Map<string, string[]>();
    for (const project of projects) {
      const names = this.lastFailures.get(project.absPath);
      if (names) found.set(project.absPath, names);
    }
    return found;
  }
}

const sessions = new WeakMap<Host, Map<string, DotnetSession>>();

export function dotnetSession(host: Host, target?: string): DotnetSession {
  let byTarget = sessions.get(host);
  if (!byTarget) {
    byTarget = new Map();
    sessions.set(host, byTarget);
  }
  const key = target?.trim() ?? '';
  let session = byTarget.get(key);
  if (!session) {
    session = new DotnetSession(host, target);
    byTarget.set(key, session);
  }
  return session;
}
