// Build less: the affected projects are built alone (in order, -p:BuildProjectReferences=false) only when
// the graph proves every upstream project unchanged and built; otherwise the reference chain is walked.

import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host } from '../../../src/core/host';
import type { ProjectGraph, ProjectNode } from '../../../src/core/dotnet/project-graph';
import { scopeOfChanges } from '../../../src/core/dotnet/project-graph';
import { buildWithoutReferenceWalk, hasFreshOutputs } from '../../../src/core/dotnet/reference-walk';
import { captureBaseline, validate } from '../../../src/core/dotnet/validator';
import { createNodeHost } from '../../../src/host/node/index';
import { FakeDotnet } from './fake-dotnet';

/** A chain Lib1 ← Lib2 ← … ← LibN ← LibN.Tests under /ws. */
function chain(length: number): ProjectGraph {
  const projects: ProjectNode[] = [];
  for (let index = 1; index <= length + 1; index++) {
    const name = index <= length ? `Lib${index}` : `Lib${length}.Tests`;
    const dir = path.resolve('/ws', name);
    projects.push({
      absPath: path.join(dir, `${name}.csproj`),
      relPath: `${name}/${name}.csproj`,
      dir,
      name,
      references: index > 1 ? [projects[index - 2]?.absPath ?? ''] : [],
      isTest: index > length,
    });
  }
  const dependents = new Map<string, string[]>();
  for (const project of projects)
    for (const reference of project.references) dependents.set(reference, [...(dependents.get(reference) ?? []), project.absPath]);
  const target = { absPath: path.resolve('/ws/Chain.sln'), relPath: 'Chain.sln', kind: 'sln' as const };
  return { target, projects, byPath: new Map(projects.map((project) => [project.absPath, project])), dependents } as ProjectGraph;
}

const names = (projects: readonly ProjectNode[] | null): string[] | null => projects && projects.map((project) => project.name);

describe('building without walking the reference chain', () => {
  const graph = chain(5);
  const built = () => true;

  it('a leaf edit with every upstream project built: the leaf and its tests alone, in order', () => {
    const scope = scopeOfChanges(graph, ['Lib5/Widget.cs'], '/ws');
    assert.deepEqual(names(buildWithoutReferenceWalk(graph, scope.affected ?? [], built)), ['Lib5', 'Lib5.Tests']);
  });

  it('an upstream project not built (or stale): the chain is walked', () => {
    const scope = scopeOfChanges(graph, ['Lib5/Widget.cs'], '/ws');
    assert.equal(
      buildWithoutReferenceWalk(graph, scope.affected ?? [], (project) => project.name !== 'Lib2'),
      null,
    );
  });

  it('an upstream edit makes that project affected: everything from it down is built in order, only what is above it skipped', () => {
    const scope = scopeOfChanges(graph, ['Lib5/Widget.cs', 'Lib3/Core.cs'], '/ws');
    assert.deepEqual(names(buildWithoutReferenceWalk(graph, scope.affected ?? [], built)), ['Lib3', 'Lib4', 'Lib5', 'Lib5.Tests']);
    const fromTheTop = scopeOfChanges(graph, ['Lib1/Base.cs'], '/ws');
    assert.equal(buildWithoutReferenceWalk(graph, fromTheTop.affected ?? [], built), null, 'nothing upstream to skip');
  });
});

describe('the validator builds the affected projects alone when upstream is built (scripted dotnet)', () => {
  let root: string;
  let fake: FakeDotnet;
  let host: Host;
  const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const timeouts = { buildMs: 60_000, testMs: 60_000 };

  /** What `dotnet build` would leave: bin/Debug/net10.0/<name>.dll, newer than every source. */
  function markBuilt(project: string, when: Date): void {
    const dll = path.join(root, project, 'bin', 'Debug', 'net10.0', `${path.basename(project)}.dll`);
    mkdirSync(path.dirname(dll), { recursive: true });
    writeFileSync(dll, 'MZ');
    utimesSync(dll, when, when);
  }

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-reference-walk-'));
    cpSync(path.join(__dirname, '..', '..', 'fixtures', 'multi'), root, {
      recursive: true,
      filter: (source) => !/[\\/](bin|obj)$/.test(source),
    });
    fake = new FakeDotnet();
    fake.tests.set('Reporting.Tests', [{ name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Passed' }]);
    fake.tests.set('TextKit.Tests', [{ name: 'TextKit.Tests.SlugTests.From', outcome: 'Passed' }]);
    host = { ...createNodeHost(root, { logger: quiet }), process: fake };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('TextKit built after its sources: Reporting and its tests are built in order with -p:BuildProjectReferences=false', async () => {
    const baseline = await captureBaseline({ host, timeouts });
    markBuilt('src/TextKit', new Date(Date.now() + 60_000));
    assert.equal(
      await hasFreshOutputs(
        { absPath: '', relPath: '', dir: path.join(root, 'src', 'TextKit'), name: 'TextKit', references: [], isTest: false },
        root,
      ),
      true,
    );
    fake.calls.length = 0;
    await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    const build = fake.calls.find((call) => call.args[0] === 'build');
    assert.ok(build?.args.includes('-p:BuildProjectReferences=false'), build?.args.join(' '));
    const traversal = String(build?.args[1]);
    const text = (await host.fs.readFile(traversal)) ?? new Uint8Array();
    const listed = [...new TextDecoder().decode(text).matchAll(/Include="([^"]+)"/g)].map((match) =>
      path
        .relative(root, match[1] ?? '')
        .split(path.sep)
        .join('/'),
    );
    assert.deepEqual(listed, ['src/Reporting/Reporting.csproj', 'tests/Reporting.Tests/Reporting.Tests.csproj']);
    assert.match(new TextDecoder().decode(text), /BuildInParallel="false"/);
  });

  it('TextKit not built, or a TextKit source newer than its output: the references are walked as before', async () => {
    const baseline = await captureBaseline({ host, timeouts });
    fake.calls.length = 0;
    await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.deepEqual(fake.summary(root).slice(0, 1), ['build tests/Reporting.Tests/Reporting.Tests.csproj --no-restore']);
    assert.ok(!fake.calls[0]?.args.includes('-p:BuildProjectReferences=false'));

    markBuilt('src/TextKit', new Date(Date.now() - 60_000));
    fake.calls.length = 0;
    await validate({ host, timeouts, changedFiles: ['src/Reporting/Report.cs'], baseline });
    assert.ok(!fake.calls[0]?.args.includes('-p:BuildProjectReferences=false'), 'an output older than Slug.cs proves nothing');
  });
});
