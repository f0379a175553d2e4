// Reads the little we need from .csproj and solution files without running MSBuild (which costs a
// second per project): project references, whether a project holds tests, and which projects a
// solution lists. Conditions are ignored on purpose: over-approximating the graph only builds a bit more.

import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';

export interface ProjectFileFacts {
  /** Absolute paths of referenced projects. */
  references: string[];
  isTest: boolean;
  /** What decides how its tests run (see test-platform.ts). */
  testRunner: TestRunnerFacts;
}

/** The project's own opt-ins to Microsoft.Testing.Platform and the report extensions it brings. */
export interface TestRunnerFacts {
  /** EnableMSTestRunner, UseMicrosoftTestingPlatformRunner, EnableNUnitRunner or MSTest.Sdk without UseVSTest. */
  mtpRunner: boolean;
  /** TestingPlatformDotnetTestSupport: MTP asked to run under the VSTest mode of `dotnet test`. */
  dotnetTestSupport: boolean;
  /** xunit v3 (its MTP mode writes TRX with --report-xunit-trx, not --report-trx). */
  xunitV3: boolean;
  /** The TrxReport extension is there: MSTest 4 / MSTest.Sdk bring it, other frameworks need the package. */
  trxReport: boolean;
  /** Microsoft.Testing.Extensions.HangDump is there: MTP can stop a hung test and name it (--hangdump). */
  hangDump: boolean;
  /** RunSettingsFilePath is set: `dotnet test` hands that file to VSTest (`dotnet vstest` would not). */
  runSettings: boolean;
}

// xunit v3 and TUnit test projects need not reference Microsoft.NET.Test.Sdk.
const TEST_SDK_PACKAGES = new Set([
  'microsoft.net.test.sdk',
  'mstest',
  'mstest.testframework',
  'microsoft.testing.platform',
  'xunit.v3',
  'xunit.v3.mtp-v1',
  'xunit.v3.mtp-v2',
  'xunit.v3.mtp-off',
  'tunit',
]);
const XUNIT_V3_PACKAGES = /^xunit\.v3(\.mtp-v\d|\.mtp-off|\.core)?$/;
const TRX_REPORT_PACKAGES = new Set(['mstest', 'microsoft.testing.extensions.trxreport']);
const HANG_DUMP_PACKAGE = 'microsoft.testing.extensions.hangdump';
const MTP_OPT_IN_PROPERTIES = ['EnableMSTestRunner', 'UseMicrosoftTestingPlatformRunner', 'EnableNUnitRunner'];
const TEST_SDKS = /^(MSTest\.Sdk|NUnit\.Sdk|xunit\.v3\.sdk)\b/i;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['ItemGroup', 'PropertyGroup', 'ProjectReference', 'PackageReference', 'Project', 'Folder', 'Sdk'].includes(name),
});

type Node = Record<string, unknown>;

function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter((item): item is Node => typeof item === 'object' && item !== null);
  return typeof value === 'object' && value !== null ? [value as Node] : [];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return text(value[value.length - 1]);
  if (typeof value === 'object' && value !== null) return text((value as Node)['#text']);
  return '';
}

/** MSBuild paths use backslashes on every platform; `$(MSBuildThisFileDirectory)` is the project's folder. */
export function resolveMsbuildPath(include: string, baseDir: string): string | null {
  const withoutThisDir = include.trim().replace(/^\$\(MSBuildThisFileDirectory\)|^\$\(MSBuildProjectDirectory\)[\\/]?/i, '');
  if (withoutThisDir === '' || withoutThisDir.includes('$(')) return null;
  return path.resolve(baseDir, withoutThisDir.replace(/\\/g, '/'));
}

export function readProjectFile(content: string, projectPath: string): ProjectFileFacts {
  const project = nodes(xml.parse(content.replace(/^\uFEFF/, '')).Project)[0];
  if (!project) throw new Error(`${projectPath} has no <Project> element`);
  const baseDir = path.dirname(projectPath);
  const references: string[] = [];
  let hasTestPackage = false;
  let isTestProperty: boolean | null = null;
  const packages = new Set<string>();
  for (const group of nodes(project.ItemGroup)) {
    for (const reference of nodes(group.ProjectReference)) {
      for (const include of text(reference['@Include']).split(';')) {
        const resolved = resolveMsbuildPath(include, baseDir);
        if (resolved) references.push(resolved);
      }
    }
    for (const pkg of nodes(group.PackageReference)) {
      const id = text(pkg['@Include']).toLowerCase();
      packages.add(id);
      if (TEST_SDK_PACKAGES.has(id)) hasTestPackage = true;
    }
  }
  const properties = new Map<string, string>();
  for (const group of nodes(project.PropertyGroup)) {
    const value = text(group.IsTestProject).toLowerCase();
    if (value === 'true' || value === 'false') isTestProperty = value === 'true';
    for (const name of [...MTP_OPT_IN_PROPERTIES, 'TestingPlatformDotnetTestSupport', 'UseVSTest', 'RunSettingsFilePath']) {
      const property = text(group[name]).toLowerCase();
      if (property !== '') properties.set(name, property);
    }
  }
  const sdks = [text(project['@Sdk']), ...nodes(project.Sdk).map((sdk) => text(sdk['@Name']))];
  const hasTestSdk = sdks.some((sdk) => TEST_SDKS.test(sdk));
  const mstestSdk = sdks.some((sdk) => /^MSTest\.Sdk\b/i.test(sdk));
  const testRunner: TestRunnerFacts = {
    mtpRunner:
      MTP_OPT_IN_PROPERTIES.some((name) => properties.get(name) === 'true') || (mstestSdk && properties.get('UseVSTest') !== 'true'),
    dotnetTestSupport: properties.get('TestingPlatformDotnetTestSupport') === 'true',
    xunitV3: [...packages].some((id) => XUNIT_V3_PACKAGES.test(id)),
    trxReport: mstestSdk || [...packages].some((id) => TRX_REPORT_PACKAGES.has(id)),
    hangDump: packages.has(HANG_DUMP_PACKAGE),
    runSettings: properties.has('RunSettingsFilePath'),
  };
  return { references: [...new Set(references)], isTest: isTestProperty ?? (hasTestPackage || hasTestSdk), testRunner };
}

/** A project with no test-runner opt-ins (VSTest, the default). */
export const VSTEST_RUNNER: TestRunnerFacts = {
  mtpRunner: false,
  dotnetTestSupport: false,
  xunitV3: false,
  trxReport: false,
  hangDump: false,
  runSettings: false,
};

export type SolutionKind = 'sln' | 'slnx' | 'slnf';

const PROJECT_EXTENSIONS = /\.(cs|fs|vb)proj$/i;

/** Absolute paths of the projects a solution (or solution filter) lists; folders and other items are skipped. */
export function readSolutionProjects(content: string, solutionPath: string, kind: SolutionKind): string[] {
  const clean = content.replace(/^\uFEFF/, '');
  // A filter's project paths are relative to the solution it narrows, not to the filter.
  const baseDir = path.dirname(kind === 'slnf' ? (solutionOfFilter(clean, solutionPath) ?? solutionPath) : solutionPath);
  const relative = listSolutionEntries(clean, kind);
  return relative
    .filter((entry) => PROJECT_EXTENSIONS.test(entry))
    .map((entry) => resolveMsbuildPath(entry, baseDir))
    .filter((entry): entry is string => entry !== null);
}

function listSolutionEntries(content: string, kind: SolutionKind): string[] {
  if (kind === 'sln') {
    // Project("{type-guid}") = "Name", "relative\path.csproj", "{project-guid}"
    return [...content.matchAll(/^\s*Project\("[^"]*"\)\s*=\s*"[^"]*"\s*,\s*"([^"]+)"/gm)].map((match) => match[1] ?? '');
  }
  if (kind === 'slnf') {
    const parsed = JSON.parse(content) as { solution?: { projects?: unknown } };
    const projects = parsed.solution?.projects;
    return Array.isArray(projects) ? projects.filter((entry): entry is string => typeof entry === 'string') : [];
  }
  const solution = nodes(xml.parse(content).Solution)[0];
  if (!solution) throw new Error('not a .slnx document (no <Solution> element)');
  const found: string[] = [];
  const visit = (node: Node): void => {
    for (const project of nodes(node.Project)) found.push(text(project['@Path']));
    for (const folder of nodes(node.Folder)) visit(folder);
  };
  visit(solution);
  return found;
}

/** The solution a filter (.slnf) narrows, relative to the filter's folder. */
export function solutionOfFilter(content: string, filterPath: string): string | null {
  const parsed = JSON.parse(content.replace(/^\uFEFF/, '')) as { solution?: { path?: unknown } };
  const solution = parsed.solution?.path;
  return typeof solution === 'string' ? resolveMsbuildPath(solution, path.dirname(filterPath)) : null;
}
