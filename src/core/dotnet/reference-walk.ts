// Building the projects a change affects normally walks their whole reference chain: MSBuild checks
// every upstream project is up to date, which in a 40-library chain costs more than the build itself.
// When the graph proves the upstream projects unchanged and already built, the affected projects are
// built alone, in dependency order, with `-p:BuildProjectReferences=false` (MSBuild then takes the
// upstream outputs as they are). Any doubt (an output missing or older than a source) walks as before.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ProjectGraph, ProjectNode } from './project-graph';

/** The projects the affected ones reference, directly or not, that are not affected themselves. */
export function upstreamOf(graph: ProjectGraph, affected: readonly ProjectNode[]): ProjectNode[] {
  const inAffected = new Set(affected.map((project) => project.absPath));
  const seen = new Set<string>();
  const queue = affected.flatMap((project) => project.references);
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (seen.has(next) || inAffected.has(next)) continue;
    seen.add(next);
    queue.push(...(graph.byPath.get(next)?.references ?? []));
  }
  return [...seen].map((absPath) => graph.byPath.get(absPath)).filter((project): project is ProjectNode => !!project);
}

/** `projects` ordered so each comes after every one of them it references (directly or not). */
export function dependencyOrder(graph: ProjectGraph, projects: readonly ProjectNode[]): ProjectNode[] {
  const wanted = new Set(projects.map((project) => project.absPath));
  const ordered: ProjectNode[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (absPath: string): void => {
    if (placed.has(absPath) || visiting.has(absPath)) return;
    visiting.add(absPath);
    for (const reference of graph.byPath.get(absPath)?.references ?? []) visit(reference);
    visiting.delete(absPath);
    placed.add(absPath);
    const project = graph.byPath.get(absPath);
    if (project && wanted.has(absPath)) ordered.push(project);
  };
  for (const project of [...projects].sort((a, b) => a.relPath.localeCompare(b.relPath))) visit(project.absPath);
  return ordered;
}

/**
 * The affected projects in build order when their reference walk can be skipped: there is upstream to
 * skip, and every upstream project is built (`isBuilt`). Null means build as before, walking references.
 * No staged edit touches an upstream project: the affected set holds every project with a changed file.
 */
export function buildWithoutReferenceWalk(
  graph: ProjectGraph,
  affected: readonly ProjectNode[],
  isBuilt: (project: ProjectNode) => boolean,
): ProjectNode[] | null {
  if (affected.length === 0) return null;
  const upstream = upstreamOf(graph, affected);
  if (upstream.length === 0 || !upstream.every(isBuilt)) return null;
  return dependencyOrder(graph, affected);
}

const SOURCE_FILE = /\.(cs|fs|vb|resx|props|targets|json|xaml|razor|cshtml)$/i;
const TOOL_FOLDERS = new Set(['bin', 'obj', '.git', '.ironbees', '.vs', 'node_modules', 'TestResults']);
const MAX_FILES_CHECKED = 5_000;

async function newestSource(dir: string, budget: { files: number }): Promise<number> {
  let newest = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (budget.files <= 0) return Infinity;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!TOOL_FOLDERS.has(entry.name)) newest = Math.max(newest, await newestSource(full, budget));
    } else if (SOURCE_FILE.test(entry.name) || /\.(cs|fs|vb)proj$/i.test(entry.name)) {
      budget.files -= 1;
      newest = Math.max(newest, (await fs.stat(full)).mtimeMs);
    }
  }
  return newest;
}

/** Directory.Build.props/targets and Directory.Packages.props from the project folder up to the workspace root. */
async function newestImport(projectDir: string, workspaceRoot: string): Promise<number> {
  let newest = 0;
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    for (const name of ['Directory.Build.props', 'Directory.Build.targets', 'Directory.Packages.props']) {
      const stat = await fs.stat(path.join(dir, name)).catch(() => null);
      if (stat) newest = Math.max(newest, stat.mtimeMs);
    }
    if (path.relative(workspaceRoot, dir) === '' || path.dirname(dir) === dir) return newest;
  }
}

/** The oldest `<name>.dll` in the project's bin/Debug/<framework>/ folders; null when one has none. */
async function oldestOutput(project: ProjectNode): Promise<number | null> {
  const configuration = path.join(project.dir, 'bin', 'Debug');
  const frameworks = await fs.readdir(configuration, { withFileTypes: true }).catch(() => null);
  if (!frameworks) return null;
  let oldest: number | null = null;
  for (const framework of frameworks.filter((entry) => entry.isDirectory())) {
    const stat = await fs.stat(path.join(configuration, framework.name, `${project.name}.dll`)).catch(() => null);
    if (!stat) return null;
    oldest = oldest === null ? stat.mtimeMs : Math.min(oldest, stat.mtimeMs);
  }
  return oldest;
}

/**
 * True when the project's outputs (the Debug build the validator makes, every framework) are newer than
 * each of its sources, its project file and the Directory.* files that apply to it. A project whose
 * assembly has another name, or with more files than are worth checking, is not proven built.
 */
export async function hasFreshOutputs(project: ProjectNode, workspaceRoot: string): Promise<boolean> {
  try {
    const output = await oldestOutput(project);
    if (output === null) return false;
    const sources = Math.max(await newestSource(project.dir, { files: MAX_FILES_CHECKED }), await newestImport(project.dir, workspaceRoot));
    return output > sources;
  } catch {
    return false;
  }
}
