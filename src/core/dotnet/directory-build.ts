// Directory.Build.props and Directory.Build.targets: MSBuild imports the nearest of each above a project
// into it, and teams put shared ProjectReferences there (every test project references the library
// under test). The project graph must see those references, or a change to the library would not
// rebuild the test projects that use it.

import * as path from 'node:path';
import type { Host } from '../host';
import { readProjectFile } from './project-file';

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

/**
 * Project references the project gets from its Directory.Build.props/targets. Conditions are ignored
 * (as for project files: a larger graph only builds a bit more); a project never references itself.
 */
export async function importedReferences(host: Host, projectPath: string): Promise<string[]> {
  const projectDir = path.dirname(projectPath);
  const found: string[] = [];
  for (const name of IMPORTED_FILES) {
    const file = await nearest(host, projectDir, name);
    if (!file) continue;
    const bytes = await host.fs.readFile(file);
    if (bytes === null) continue;
    // $(MSBuildThisFileDirectory) is the imported file's folder; a plain relative path is the project's.
    const content = new TextDecoder()
      .decode(bytes)
      .replace(/\$\(MSBuildThisFileDirectory\)/gi, `${path.dirname(file)}/`);
    try {
      found.push(...readProjectFile(content, projectPath).references);
    } catch {
      // Not readable as a project file: MSBuild will say so when it builds.
    }
  }
  return [...new Set(found)].filter((reference) => reference !== projectPath);
}
