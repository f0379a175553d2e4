// Finds what to build: the solution or project the person named, or the one the workspace obviously
// has. When it is not obvious, say so with the candidates instead of guessing.

import * as path from 'node:path';
import { ConfigurationError } from '../errors';
import type { Host } from '../host';
import { isInsideWorkspace } from '../workspace/paths';
import type { SolutionKind } from './project-file';

export type TargetKind = SolutionKind | 'project';

export interface BuildTarget {
  absPath: string;
  /** Workspace-relative, forward slashes. */
  relPath: string;
  kind: TargetKind;
}

/** Bounds the walk on very large workspaces; solutions live near the top anyway. */
const MAX_FILES_SCANNED = 20_000;
const MAX_CANDIDATES_SHOWN = 15;

export function targetKindOf(filePath: string): TargetKind | null {
  const lower = filePath.toLowerCase();
  if (lower.endsWith('.sln')) return 'sln';
  if (lower.endsWith('.slnx')) return 'slnx';
  if (lower.endsWith('.slnf')) return 'slnf';
  if (/\.(cs|fs|vb)proj$/.test(lower)) return 'project';
  return null;
}

function toTarget(workspaceRoot: string, relPath: string): BuildTarget {
  const kind = targetKindOf(relPath);
  if (!kind) throw new Error(`not a solution or project: ${relPath}`);
  return { absPath: path.join(workspaceRoot, relPath), relPath: relPath.split(path.sep).join('/'), kind };
}

function describe(candidates: readonly string[]): string {
  const shown = candidates.slice(0, MAX_CANDIDATES_SHOWN).join(', ');
  return candidates.length > MAX_CANDIDATES_SHOWN ? `${shown} and ${candidates.length - MAX_CANDIDATES_SHOWN} more` : shown;
}

async function namedTarget(host: Pick<Host, 'workspaceRoot' | 'fs'>, target: string): Promise<BuildTarget> {
  const root = host.workspaceRoot;
  if (!isInsideWorkspace(root, target)) {
    throw new ConfigurationError(`The build target "${target}" is outside the workspace ${root}.`, { target });
  }
  const absPath = path.resolve(root, target);
  const relPath = path.relative(root, absPath);
  if (!targetKindOf(relPath)) {
    throw new ConfigurationError(
      `The build target "${target}" is not a solution (.sln, .slnx, .slnf) or project (.csproj, .fsproj, .vbproj).`,
      { target },
    );
  }
  if (!(await host.fs.exists(absPath))) {
    throw new ConfigurationError(`The build target "${target}" does not exist in the workspace ${root}.`, { target });
  }
  return toTarget(root, relPath);
}

/** Between Foo.sln and its migrated Foo.slnx, the newer format wins; any other pair is ambiguous. */
function pickSolution(solutions: readonly string[]): string | null {
  if (solutions.length === 1) return solutions[0] ?? null;
  const stems = new Set(solutions.map((solution) => solution.replace(/\.slnx?$/i, '')));
  if (solutions.length === 2 && stems.size === 1) return solutions.find((solution) => /\.slnx$/i.test(solution)) ?? null;
  return null;
}

/**
 * The solution or project to build: `target` (workspace-relative) when given; else the root solution;
 * else the only project; else the only solution anywhere. Throws ConfigurationError when there is none
 * or the choice is ambiguous, listing the candidates.
 */
export async function findBuildTarget(host: Pick<Host, 'workspaceRoot' | 'fs'>, target?: string): Promise<BuildTarget> {
  if (target !== undefined && target.trim() !== '') return namedTarget(host, target.trim());
  const root = host.workspaceRoot;
  const files = await host.fs.listFiles(root, { maxFiles: MAX_FILES_SCANNED });
  const solutions = files.filter((file) => /\.slnx?$/i.test(file)).sort();
  const rootSolution = pickSolution(solutions.filter((file) => !file.includes('/')));
  if (rootSolution) return toTarget(root, rootSolution);
  const rootSolutions = solutions.filter((file) => !file.includes('/'));
  if (rootSolutions.length > 1) {
    throw new ConfigurationError(
      `Several solutions at the workspace root (${describe(rootSolutions)}); set the target to the one to build.`,
      { candidates: rootSolutions },
    );
  }
  const projects = files.filter((file) => targetKindOf(file) === 'project').sort();
  if (projects.length === 1 && projects[0]) return toTarget(root, projects[0]);
  const nestedSolution = pickSolution(solutions);
  if (nestedSolution) return toTarget(root, nestedSolution);
  if (projects.length === 0 && solutions.length === 0) {
    throw new ConfigurationError(`No .NET solution or project found in ${root}; open a folder with a .sln, .slnx or .csproj.`, {});
  }
  const candidates = [...solutions, ...projects];
  throw new ConfigurationError(
    `Cannot tell which solution or project to build in ${root}: ${describe(candidates)}. Set the target to one of them.`,
    { candidates },
  );
}
