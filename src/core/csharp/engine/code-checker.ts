// Checking staged edits with the compiler, in memory: the CodeChecker the Host offers (check_code
// and the pre-review gate ask it), and the shared pieces both use: which staged files to send and
// how errors read.

import type { CodeCheckOptions, CodeCheckResult, CodeChecker, CompileError } from '../../host';
import type { StagedOverlay } from '../../workspace/overlay';
import type { RoslynEngine } from './roslyn-engine';

export interface EngineCodeCheckerOptions {
  /**
   * The projects (workspace-relative project files) the latest real build reported errors in; null
   * before any build. Only there are errors the engine sees in the code on disk taken as real (and
   * left out of the answer as already there); elsewhere they show the engine sees the project
   * differently from the build, and the project is answered "unknown".
   */
  projectsFailingToBuild?: () => string[] | null;
}

export class EngineCodeChecker implements CodeChecker {
  constructor(
    private readonly engine: RoslynEngine,
    private readonly options: EngineCodeCheckerOptions = {},
  ) {}

  check(files: ReadonlyArray<{ path: string; text: string | null }>, options: CodeCheckOptions = {}): Promise<CodeCheckResult> {
    const buildFailed = this.options.projectsFailingToBuild?.() ?? null;
    return this.engine.check<CodeCheckResult>({ files, buildInputs: options.buildInputs ?? [], buildFailed }, options.signal);
  }

  warmUp(): void {
    this.engine.warmUp();
  }
}

export interface StagedSources {
  /** C# files with their staged text (null: staged for deletion). */
  files: Array<{ path: string; text: string | null }>;
  /**
   * Staged files the in-memory check cannot judge (project files, props, global.json, nuget.config):
   * the real build does, and the projects they reach are answered "unknown".
   */
  unchecked: string[];
}

/** Files that change what a build restores or how it compiles, not C# the compiler reads. */
export const BUILD_INPUT = /(\.(csproj|props|targets|sln|slnx|slnf)|(^|\/)(global\.json|nuget\.config|packages\.lock\.json))$/i;

/** The overlay's staged files, split for the in-memory check. */
export function stagedSources(overlay: StagedOverlay): Promise<StagedSources> {
  return changedSources(overlay.stagedPaths(), (rel) => overlay.read(rel));
}

/**
 * Changed files (workspace-relative) split for the in-memory check: C# files with their new text
 * (`textOf` is asked for those only; null: deleted), the build inputs it leaves to the build, and
 * nothing of the rest.
 */
export async function changedSources(
  paths: Iterable<string>,
  textOf: (rel: string) => Promise<string | null> | string | null,
): Promise<StagedSources> {
  const files: StagedSources['files'] = [];
  const unchecked: string[] = [];
  for (const rel of paths) {
    if (rel.toLowerCase().endsWith('.cs')) files.push({ path: rel, text: await textOf(rel) });
    else if (BUILD_INPUT.test(rel)) unchecked.push(rel);
  }
  return { files, unchecked };
}

export function errorLine(e: CompileError): string {
  return `${e.filePath}:${e.line}:${e.column}: error ${e.code}: ${e.message}`;
}

export function checkReport(result: CodeCheckResult, unchecked: readonly string[]): string {
  const compiled = result.projects.length > 0 ? result.projects.join(', ') : 'no project';
  const also = (unchecked.length > 0 ? `\nNot checked here (the build checks them): ${unchecked.join(', ')}.` : '') + unknownReport(result);
  if (result.total === 0) return `No new compile errors (compiled ${compiled} with your staged edits).${also}`;
  const more = result.total > result.errors.length ? `\n[${result.total - result.errors.length} more not shown; fix these first.]` : '';
  return `${result.total} new compile error(s) in ${compiled} with your staged edits:\n${result.errors.map(errorLine).join('\n')}${more}${also}`;
}

/** The projects the check could not judge, one line each; empty when it judged them all. */
export function unknownReport(result: CodeCheckResult): string {
  const unknown = result.unknown ?? [];
  if (unknown.length === 0) return '';
  return `\nNot compiled here, the build decides (do not change code or packages for this): ${unknown.map((u) => `${u.project} (${u.reason})`).join('; ')}.`;
}
