// Directory.Build.props and Directory.Build.targets: MSBuild imports the nearest of each above a project
// into it, and teams put shared ProjectReferences there (every test project references the library
// under test). The project graph must see those references, or a change to the library would not
// rebuild the test projects that use it. Teams also opt every test project into Microsoft.Testing.Platform
// there (<EnableMSTestRunner>, <TestingPlatformDotnetTestSupport>, an extension's PackageReference): the
// test runner must see those, or an MTP project would be run the VSTest way.

import * as path from 'node:path';
import type { Host } from '../host';
import { VSTEST_RUNNER, readProjectFile } from './project-file';
import type { TestRunnerFacts } from './project-file';

const IMPORTED_FILES = ['Directory.Build.props', 'Directory.Build.targets'];

/** The nearest file of that name in the project's folder or above it, inside the workspace. */
async function nearest(host: Host, projectDir: string, name: string): Promise<string | null> {
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (await host.fs.exists(candidate)) return candidate;
    const relative = path.relative(host.workspaceRoot, dir);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || dir === path.dirname(dir)) return null;
  }
}

export interface ImportedFacts {
  /** Project references the project gets from its Directory.Build.props/targets (never itself). */
  references: string[];
  /** The test-runner opt-ins and report extensions set there. */
  testRunner: TestRunnerFacts;
}

/**
 * What the project gets from its Directory.Build.props/targets. Conditions are ignored (as for project
 * files: a larger graph only builds a bit more, and an opt-in is taken as set).
 */
export async function importedFacts(host: Host, projectPath: string): Promise<ImportedFacts> {
  const projectDir = path.dirname(projectPath);
  const found: string[] = [];
  let testRunner = VSTEST_RUNNER;
  for (const name of IMPORTED_FILES) {
    const file = await nearest(host, projectDir, name);
    if (!file) continue;
    const bytes = await host.fs.readFile(file);
    if (bytes === null) continue;
    // $(MSBuildThisFileDirectory) is the imported file's folder; a plain relative path is the project's.
    const content = new TextDecoder().decode(bytes).replace(/\$\(MSBuildThisFileDirectory\)/gi, `${path.dirname(file)}/`);
    try {
      const facts = readProjectFile(content, projectPath);
      found.push(...facts.references);
      testRunner = eitherRunner(testRunner, facts.testRunner);
    } catch {
      // Not readable as a project file: MSBuild will say so when it builds.
    }
  }
  return { references: [...new Set(found)].filter((reference) => reference !== projectPath), testRunner };
}

/** An opt-in set in the project or in a file imported into it holds for the project. */
export function eitherRunner(first: TestRunnerFacts, second: TestRunnerFacts): TestRunnerFacts {
  return {
    mtpRunner: first.mtpRunner || second.mtpRunner,
    dotnetTestSupport: first.dotnetTestSupport || second.dotnetTestSupport,
    xunitV3: first.xunitV3 || second.xunitV3,
    trxReport: first.trxReport || second.trxReport,
    hangDump: first.hangDump || second.hangDump,
    runSettings: first.runSettings || second.runSettings,
  };
}
