// Where each test project's assembly was built, read from the build's own output: MSBuild prints
// "<ProjectName> -> <TargetPath>" for every project it builds (one line per target framework), also when
// nothing changed. Knowing the assembly lets the tests run without `dotnet test`, which evaluates the
// project with MSBuild again before it runs anything (a second or more per project, every iteration):
// `dotnet vstest <dll>` for VSTest, the test application itself for Microsoft.Testing.Platform.

import * as path from 'node:path';

const OUTPUT_LINE = /^\s*([^\s>]+) -> (\S.*\.dll)\s*$/;

/** Collects the "Name -> path.dll" lines of one build from its streamed output. */
export class BuildOutputCollector {
  /** The unfinished last line of each stream (chunks may end mid-line; the two streams interleave). */
  private readonly pending = new Map<string, string>();
  private readonly byName = new Map<string, Set<string>>();

  /** For `runBuild`'s onOutput. */
  readonly note = (chunk: string, stream: 'stdout' | 'stderr' = 'stdout'): void => {
    const lines = ((this.pending.get(stream) ?? '') + chunk).split(/\r?\n/);
    this.pending.set(stream, lines.pop() ?? '');
    for (const line of lines) this.read(line);
  };

  private read(line: string): void {
    const match = OUTPUT_LINE.exec(line);
    const name = match?.[1];
    const file = match?.[2];
    if (!name || !file || !path.isAbsolute(file)) return;
    const paths = this.byName.get(name) ?? new Set<string>();
    paths.add(path.normalize(file));
    this.byName.set(name, paths);
  }

  /** Project name → its assemblies, as this build printed them. */
  found(): Map<string, string[]> {
    for (const rest of this.pending.values()) this.read(rest);
    this.pending.clear();
    return new Map([...this.byName].map(([name, paths]) => [name, [...paths]]));
  }
}

/**
 * What the builds so far say about each project's assemblies. A build that printed a project replaces
 * what an earlier build said about it; a project whose name two projects share is never matched.
 */
export class BuiltAssemblies {
  private readonly byName = new Map<string, string[]>();

  remember(build: ReadonlyMap<string, readonly string[]>): void {
    for (const [name, paths] of build) this.byName.set(name, [...paths]);
  }

  /** Project path → its assemblies, for the given projects whose name is unique among them. */
  forProjects(projects: ReadonlyArray<{ absPath: string; name: string }>): Map<string, string[]> {
    const counts = new Map<string, number>();
    for (const project of projects) counts.set(project.name, (counts.get(project.name) ?? 0) + 1);
    const found = new Map<string, string[]>();
    for (const project of projects) {
      const paths = this.byName.get(project.name);
      if (paths && counts.get(project.name) === 1) found.set(project.absPath, paths);
    }
    return found;
  }
}
