// Which target frameworks of a multi-targeted test project can run here. `dotnet test` on a project
// with <TargetFrameworks>net10.0;net8.0</TargetFrameworks> tries every one, and a framework whose
// runtime is not installed aborts its test host ("You must install or update .NET"): a run could never
// succeed on such a machine. So the frameworks whose runtime is installed are tested, and the others
// are named as skipped with the reason, never silently dropped.

import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Host } from '../host';
import { buildEnv, runDotnet } from './dotnet-cli';

export interface SkippedFramework {
  framework: string;
  reason: string;
}

export interface FrameworkPlan {
  /** Frameworks to test; empty when the project is not multi-targeted (test it as it is). */
  run: string[];
  skipped: SkippedFramework[];
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => ['PropertyGroup', 'Project'].includes(name) });

type Node = Record<string, unknown>;

function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter((item): item is Node => typeof item === 'object' && item !== null);
  return typeof value === 'object' && value !== null ? [value as Node] : [];
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return textOf(value[value.length - 1]);
  if (typeof value === 'object' && value !== null) return textOf((value as Node)['#text']);
  return '';
}

/** The last TargetFrameworks / TargetFramework a file sets (conditions ignored), or null when it sets none. */
export function declaredFrameworks(content: string): string[] | null {
  let parsed: unknown;
  try {
    parsed = xml.parse(content.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  let found: string[] | null = null;
  for (const project of nodes((parsed as Node).Project)) {
    for (const group of nodes(project.PropertyGroup)) {
      const plural = textOf(group.TargetFrameworks);
      const single = textOf(group.TargetFramework);
      const value = plural || single;
      if (value)
        found = value
          .split(';')
          .map((tfm) => tfm.trim())
          .filter(Boolean);
    }
  }
  return found;
}

/**
 * The project's frameworks: its own setting, else the nearest Directory.Build.props above it (inside the
 * workspace) that sets one. Null when unknowable here (a property we cannot evaluate, or none found).
 */
export async function targetFrameworksOf(host: Host, projectPath: string): Promise<string[] | null> {
  const candidates = [projectPath];
  for (let dir = path.dirname(projectPath); ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'Directory.Build.props'));
    const relative = path.relative(host.workspaceRoot, dir);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || dir === path.dirname(dir)) break;
  }
  for (const file of candidates) {
    const bytes = await host.fs.readFile(file);
    if (bytes === null) continue;
    const frameworks = declaredFrameworks(new TextDecoder().decode(bytes));
    if (frameworks === null) continue;
    return frameworks.some((tfm) => tfm.includes('$(')) ? null : frameworks;
  }
  return null;
}

/** `Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]` → '10.0.12'. */
export function parseNetCoreRuntimes(listRuntimesOutput: string): string[] {
  return [...listRuntimesOutput.matchAll(/^Microsoft\.NETCore\.App\s+(\S+)\s/gm)].map((match) => match[1] ?? '');
}

/** The runtime version (major.minor) a framework's tests need; null for frameworks .NET (Core) does not run. */
export function runtimeNeededBy(framework: string): string | null {
  const match = /^net(?:coreapp)?(\d+)\.(\d+)(?:-.+)?$/i.exec(framework);
  if (!match) return null;
  const major = Number(match[1]);
  if (!/^netcoreapp/i.test(framework) && major < 5) return null;
  return `${major}.${match[2]}`;
}

/**
 * Decides, from the declared frameworks and the installed runtimes, what to test. A framework's tests run
 * on its own major.minor runtime (a test host does not roll forward to a newer major by default).
 * .NET Framework targets (net48, …) run only on Windows.
 */
export function planFrameworks(
  frameworks: readonly string[] | null,
  runtimes: readonly string[],
  platform: NodeJS.Platform,
): FrameworkPlan {
  if (!frameworks || frameworks.length < 2) return { run: [], skipped: [] };
  const installed = new Set(runtimes.map((version) => version.split('.').slice(0, 2).join('.')));
  const shown = runtimes.length > 0 ? runtimes.join(', ') : 'none';
  const plan: FrameworkPlan = { run: [], skipped: [] };
  for (const framework of frameworks) {
    const needed = runtimeNeededBy(framework);
    if (needed === null) {
      if (/^net\d{2,3}$/i.test(framework) && platform === 'win32') plan.run.push(framework);
      else
        plan.skipped.push({
          framework,
          reason: /^net\d{2,3}$/i.test(framework) ? '.NET Framework tests run only on Windows' : 'not a framework tests run on',
        });
    } else if (installed.has(needed)) {
      plan.run.push(framework);
    } else {
      plan.skipped.push({ framework, reason: `the .NET ${needed} runtime is not installed (installed: ${shown})` });
    }
  }
  return plan;
}

const runtimeLists = new WeakMap<Host, Promise<string[]>>();

/** The installed .NET runtimes, asked once per host. */
export function installedRuntimes(host: Host): Promise<string[]> {
  let list = runtimeLists.get(host);
  if (!list) {
    list = runDotnet(host, ['--list-runtimes'], {
      cwd: host.workspaceRoot,
      timeoutMs: 30_000,
      env: buildEnv(process.platform, host.workspaceRoot),
    })
      .then((run) => (run.exitCode === 0 ? parseNetCoreRuntimes(run.stdout) : []))
      .catch(() => []);
    runtimeLists.set(host, list);
  }
  return list;
}

/** The plan for one test project (no `dotnet` call unless it is multi-targeted). */
export async function frameworkPlanFor(host: Host, projectPath: string): Promise<FrameworkPlan> {
  const frameworks = await targetFrameworksOf(host, projectPath);
  if (!frameworks || frameworks.length < 2) return { run: [], skipped: [] };
  const runtimes = await installedRuntimes(host);
  // Not knowing what is installed is no reason to skip anything: test every framework as dotnet would.
  return runtimes.length === 0 ? { run: [], skipped: [] } : planFrameworks(frameworks, runtimes, process.platform);
}

/** "Units.Tests net8.0 (the .NET 8.0 runtime is not installed (installed: 10.0.12))" */
export function describeSkipped(projectName: string, skipped: readonly SkippedFramework[]): string[] {
  return skipped.map((entry) => `${projectName} ${entry.framework} (${entry.reason})`);
}
