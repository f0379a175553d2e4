// Turns MSBuild console output (`dotnet build -nologo -clp:NoSummary -tl:off -p:GenerateFullPaths=true`)
// into diagnostics. MSBuild's canonical message format is
//   origin(line,col[,endLine,endCol]) : [fatal ]error|warning CODE : text [project]
// where origin is a file, or a tool name (MSBUILD, CSC) when there is no file.

import * as path from 'node:path';
import type { CompilationDiagnostic } from '../model';

export interface ParsedBuildOutput {
  errors: CompilationDiagnostic[];
  warnings: CompilationDiagnostic[];
}

const DIAGNOSTIC_LINE =
  /^\s*(?<origin>.*?)(?:\((?<location>\d+(?:,\d+){0,3})\))?\s*:\s*(?<severity>(?:fatal )?error|warning)(?:\s+(?<code>[A-Za-z][A-Za-z0-9_.-]*\d))?\s*:\s?(?<message>.*)$/;

/** MSBuild appends the reporting project, sometimes with its target framework: `[/p/x.csproj::TargetFramework=net10.0]`. */
const TRAILING_PROJECT = /\s+\[(?<project>[^\]]+?\.[A-Za-z]*proj)(?:::[^\]]*)?\]\s*$/;
/** Restore errors of a solution build end with the solution instead: `[/p/App.slnf]`. Not a project; just noise. */
const TRAILING_SOLUTION = /\s+\[[^\]]+?\.sln[xf]?\]\s*$/i;

/** An origin without a location is a file when it looks like a path, else a tool name (MSBUILD, CSC, EXEC). */
function looksLikePath(origin: string): boolean {
  return /[\\/]/.test(origin) || /\.[A-Za-z]{1,8}$/.test(origin);
}

/** Workspace-relative with forward slashes when inside the workspace; otherwise as given. */
export function toWorkspacePath(filePath: string, workspaceRoot: string): string {
  const isAbsolute = path.isAbsolute(filePath) || path.win32.isAbsolute(filePath);
  if (!isAbsolute) return filePath.replace(/\\/g, '/');
  const relative = path.relative(workspaceRoot, filePath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return filePath;
  return relative.split(path.sep).join('/');
}

export function parseMsbuildLine(
  line: string,
  workspaceRoot: string,
): { severity: 'error' | 'warning'; diagnostic: CompilationDiagnostic } | null {
  const match = DIAGNOSTIC_LINE.exec(line);
  if (!match?.groups) return null;
  const { origin = '', location, severity = '', code = '' } = match.groups;
  let message = match.groups.message ?? '';
  let project: string | undefined;
  const projectMatch = TRAILING_PROJECT.exec(message);
  if (projectMatch?.groups?.project) {
    project = toWorkspacePath(projectMatch.groups.project, workspaceRoot);
    message = message.slice(0, projectMatch.index);
  } else {
    message = message.replace(TRAILING_SOLUTION, '');
  }
  const trimmedOrigin = origin.trim();
  const isFile = trimmedOrigin !== '' && (location !== undefined || looksLikePath(trimmedOrigin));
  const [lineNumber = 0, column = 0] = (location ?? '').split(',').filter(Boolean).map(Number);
  const diagnostic: CompilationDiagnostic = {
    code,
    message: message.trim(),
    filePath: isFile ? toWorkspacePath(trimmedOrigin, workspaceRoot) : null,
    line: lineNumber,
    column,
  };
  if (project !== undefined) diagnostic.project = project;
  return { severity: severity.endsWith('error') ? 'error' : 'warning', diagnostic };
}

function keyOf(diagnostic: CompilationDiagnostic): string {
  return [diagnostic.filePath, diagnostic.line, diagnostic.column, diagnostic.code, diagnostic.message, diagnostic.project].join('\u0000');
}

/**
 * NuGet splits one error over several lines with the same code, the later ones indented:
 *   App.csproj : error NU1301: Unable to load the service index for source https://feed/v3/index.json.
 *   App.csproj : error NU1301:   Connection refused (127.0.0.1:9)
 */
const CONTINUATION = /:\s*(?:fatal )?(?:error|warning)\s+NU\d+\s*:\s{2,}\S/;

/** Every error and warning in the output, once each (MSBuild repeats them in its summary and per target framework). */
export function parseMsbuildOutput(output: string, workspaceRoot: string): ParsedBuildOutput {
  const errors: CompilationDiagnostic[] = [];
  const warnings: CompilationDiagnostic[] = [];
  const seen = new Map<string, CompilationDiagnostic>();
  let last: CompilationDiagnostic | null = null;
  for (const line of output.split(/\r?\n/)) {
    if (!/\b(?:error|warning)\b/.test(line)) continue;
    const parsed = parseMsbuildLine(line, workspaceRoot);
    if (!parsed) continue;
    const { diagnostic } = parsed;
    if (last && CONTINUATION.test(line) && last.code === diagnostic.code && last.filePath === diagnostic.filePath) {
      // The detail of the line before (the reason a feed failed): part of that error, said once.
      if (!last.message.includes(diagnostic.message)) last.message = `${last.message.replace(/\.$/, '')}: ${diagnostic.message}`;
      continue;
    }
    const key = `${parsed.severity}\u0000${keyOf(diagnostic)}`;
    const known = seen.get(key);
    if (known) {
      last = known;
      continue;
    }
    seen.set(key, diagnostic);
    last = diagnostic;
    (parsed.severity === 'error' ? errors : warnings).push(diagnostic);
  }
  return { errors, warnings };
}

/** A stable identity for comparing errors across builds: line numbers move when code above them changes. */
export function diagnosticIdentity(diagnostic: CompilationDiagnostic): string {
  return [diagnostic.filePath ?? '', diagnostic.code, diagnostic.message].join('\u0000');
}
