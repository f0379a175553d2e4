// The projects behind a build target and how they reference each other, so a change to one file builds
// only the projects it can affect and runs only the tests that can see it.

import * as path from 'node:path';
import type { Host } from '../host';
import { errorMessage } from '../errors';
import { PathSpellings, foldPath, pathsIgnoreCase } from '../workspace/path-case';
import { eitherRunner, importedFacts } from './directory-build';
import { VSTEST_RUNNER, readProjectFile, readSolutionProjects } from './project-file';
import type { ProjectFileFacts, TestRunnerFacts } from './project-file';
import type { BuildTarget } from './target';

export interface ProjectNode {
  absPath: string;
  /** Workspace-relative, forward slashes. */
  relPath: string;
  /** Absolute folder of the project file: the files under it belong to it. */
  dir: string;
  name: string;
  /** Absolute paths of the projects it references (those found on disk). */
  references: string[];
  isTest: boolean;
  /** Its own opt-ins to Microsoft.Testing.Platform; absent means VSTest. */
  testRunner?: TestRunnerFacts;
}

export interface ProjectGraph {
  target: BuildTarget;
  projects: ProjectNode[];
  byPath: ReadonlyMap<string, ProjectNode>;
  /** Project → the projects that reference it directly. */
  dependents: ReadonlyMap<string, readonly string[]>;
  /**
   * File names ignore case (Windows, macOS): every path above is spelled as first seen, and a path in
   * another case (a ProjectReference, a changed file) names the same project. Absent: they do not.
   */
  ignoreCase?: boolean;
}

const decoder = new TextDecoder();

async function readText(host: Host, absPath: string): Promise<string | null> {
  const bytes = await host.fs.readFile(absPath);
  return bytes === null ? null : decoder.decode(bytes);
}

function relativeTo(root: string, absPath: string): string {
  return path.relative(root, absPath).split(path.sep).join('/');
}

async function rootProjects(host: Host, target: BuildTarget): Promise<string[]> {
  if (target.kind === 'project') return [target.absPath];
  const content = await readText(host, target.absPath);
  if (content === null) return [];
  try {
    return readSolutionProjects(content, target.absPath, target.kind);
  } catch (error) {
    host.logger.warn(`Could not read ${target.relPath}: ${errorMessage(error)}; building it whole.`);
    return [];
  }
}

/** Reads the target's projects and, transitively, every project they reference. */
export async function loadProjectGraph(host: Host, target: BuildTarget): Promise<ProjectGraph> {
  const byPath = new Map<string, ProjectNode>();
  const ignoreCase = pathsIgnoreCase(host.fs);
  // One spelling per project file: a reference in another case is the same project, not a missing one.
  const spellings = new PathSpellings(ignoreCase);
  const queue = (await rootProjects(host, target)).map((file) => spellings.canonical(file));
  while (queue.length > 0) {
    const absPath = queue.shift() as string;
    if (byPath.has(absPath)) continue;
    const content = await readText(host, absPath);
    if (content === null) {
      host.logger.warn(`${relativeTo(host.workspaceRoot, absPath)} is listed or referenced but does not exist.`);
      continue;
    }
    let facts: ProjectFileFacts = { references: [], isTest: false, testRunner: VSTEST_RUNNER };
    try {
      facts = readProjectFile(content, absPath);
    } catch (error) {
      host.logger.warn(`Could not read ${relativeTo(host.workspaceRoot, absPath)}: ${errorMessage(error)}`);
    }
    const imported = await importedFacts(host, absPath);
    facts.references = [...new Set([...facts.references, ...imported.references].map((reference) => spellings.canonical(reference)))];
    facts.testRunner = eitherRunner(facts.testRunner, imported.testRunner);
    byPath.set(absPath, {
      absPath,
      relPath: relativeTo(host.workspaceRoot, absPath),
      dir: path.dirname(absPath),
      name: path.basename(absPath).replace(/\.[^.]+$/, ''),
      references: facts.references,
      isTest: facts.isTest,
      testRunner: facts.testRunner,
    });
    queue.push(...facts.references);
  }
  const dependents = new Map<string, string[]>();
  for (const project of byPath.values()) {
    project.references = project.references.filter((reference) => byPath.has(reference));
    for (const reference of project.references) dependents.set(reference, [...(dependents.get(reference) ?? []), project.absPath]);
  }
  return { target, projects: [...byPath.values()], byPath, dependents, ...(ignoreCase ? { ignoreCase } : {}) };
}

/** The project whose file is `absFile`, in whatever case the file system takes as the same. */
function projectAt(graph: ProjectGraph, absFile: string): ProjectNode | undefined {
  const exact = graph.byPath.get(absFile);
  if (exact || !graph.ignoreCase) return exact;
  const key = foldPath(absFile, true);
  return graph.projects.find((project) => foldPath(project.absPath, true) === key);
}

/** The project a file belongs to: the one with the deepest folder containing it. */
export function ownerOf(graph: ProjectGraph, absFile: string): ProjectNode | null {
  let owner: ProjectNode | null = null;
  const fold = (p: string): string => foldPath(p, graph.ignoreCase === true);
  for (const project of graph.projects) {
    const relative = path.relative(fold(project.dir), fold(absFile));
    const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    if (inside && (owner === null || project.dir.length > owner.dir.length)) owner = project;
  }
  return owner;
}

export interface ChangeScope {
  /** Build the whole target and run every test project. */
  full: boolean;
  /** Why the scope is full, for the trace. */
  reason?: string;
  /** Project or package files changed: restore before building. */
  needsRestore: boolean;
  /** What to build (each builds what it references); empty when `full`. */
  buildRoots: ProjectNode[];
  testProjects: ProjectNode[];
  /** Every project the change affects (those with a changed file and all that depend on them); empty when `full`. */
  affected?: ProjectNode[];
}

/** Files whose change alters packages or the project graph: the graph is read again and packages restored. */
export function changesBuildInputs(file: string): boolean {
  return /(\.(cs|fs|vb)proj|\.props|\.targets|\.slnx?|\.slnf|(^|\/)nuget\.config|(^|\/)global\.json|packages\.lock\.json)$/i.test(file);
}
/** Files that cannot change a build when they sit outside every project. */
const INERT_FILES = /(\.(md|txt|png|jpe?g|gif|svg|ya?ml)|(^|\/)(LICENSE|\.gitignore|\.gitattributes))$/i;

function fullScope(graph: ProjectGraph, reason: string, needsRestore: boolean): ChangeScope {
  return { full: true, reason, needsRestore, buildRoots: [], testProjects: graph.projects.filter((project) => project.isTest) };
}

/** What a set of changed files (workspace-relative) requires building and testing. */
export function scopeOfChanges(graph: ProjectGraph, changedFiles: readonly string[], workspaceRoot: string): ChangeScope {
  const needsRestore = changedFiles.some(changesBuildInputs);
  if (changedFiles.length === 0) return fullScope(graph, 'no changed files were named', needsRestore);
  const changed = new Set<string>();
  for (const file of changedFiles) {
    const absFile = path.resolve(workspaceRoot, file);
    const asProject = projectAt(graph, absFile);
    if (asProject) {
      changed.add(asProject.absPath);
      continue;
    }
    if (changesBuildInputs(file)) return fullScope(graph, `${file} changes the build itself`, true);
    const owner = ownerOf(graph, absFile);
    if (owner) changed.add(owner.absPath);
    else if (!INERT_FILES.test(file)) return fullScope(graph, `${file} belongs to no project of ${graph.target.relPath}`, needsRestore);
  }
  if (changed.size === 0) return fullScope(graph, 'no changed file belongs to a project', needsRestore);
  const affected = new Set<string>();
  const queue = [...changed];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (affected.has(current)) continue;
    affected.add(current);
    queue.push(...(graph.dependents.get(current) ?? []));
  }
  const projects = [...affected].map((absPath) => graph.byPath.get(absPath)).filter((project): project is ProjectNode => !!project);
  // The affected set holds every dependent, so a project referenced by another affected one is built by it.
  const buildRoots = projects.filter((project) => (graph.dependents.get(project.absPath) ?? []).length === 0);
  return { full: false, needsRestore, buildRoots, testProjects: projects.filter((project) => project.isTest), affected: projects };
}
