import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import { createNodeHost } from '../../../src/host/node/index';
import { readProjectFile, readSolutionProjects } from '../../../src/core/dotnet/project-file';
import { loadProjectGraph, ownerOf, scopeOfChanges } from '../../../src/core/dotnet/project-graph';
import { findBuildTarget } from '../../../src/core/dotnet/target';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const hostFor = (root: string) => createNodeHost(root, { logger: quietLogger });

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-graph-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const LIB = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>';

describe('readProjectFile', () => {
  it('reads references (backslashes, MSBuildThisFileDirectory) and tells test projects apart', () => {
    const xml = `<Project Sdk="Microsoft.NET.Sdk">
      <ItemGroup>
        <PackageReference Include="Microsoft.NET.Test.Sdk" Version="18.0.1" />
        <ProjectReference Include="..\\..\\src\\Core\\Core.csproj" />
        <ProjectReference Include="$(MSBuildThisFileDirectory)../Helpers/Helpers.csproj" Condition="'$(X)' == ''" />
        <ProjectReference Include="$(SomeRoot)/Unknowable.csproj" />
      </ItemGroup>
    </Project>`;
    const facts = readProjectFile(xml, '/ws/tests/Core.Tests/Core.Tests.csproj');
    assert.deepEqual(facts, {
      references: ['/ws/src/Core/Core.csproj', '/ws/tests/Helpers/Helpers.csproj'],
      isTest: true,
      testRunner: { mtpRunner: false, dotnetTestSupport: false, xunitV3: false, trxReport: false, hangDump: false, runSettings: false },
    });
  });

  it('honours IsTestProject and test SDKs', () => {
    assert.equal(readProjectFile('<Project Sdk="MSTest.Sdk/3.6.0"></Project>', '/ws/A.csproj').isTest, true);
    const opted =
      '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><IsTestProject>false</IsTestProject></PropertyGroup><ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" /></ItemGroup></Project>';
    assert.equal(readProjectFile(opted, '/ws/A.csproj').isTest, false);
    assert.equal(readProjectFile(LIB, '/ws/A.csproj').isTest, false);
  });

  it('refuses something that is not a project', () => {
    assert.throws(() => readProjectFile('<Nope/>', '/ws/A.csproj'), /has no <Project> element/);
  });
});

describe('readSolutionProjects', () => {
  it('lists the projects of a .sln, skipping solution folders', () => {
    const sln = `Microsoft Visual Studio Solution File, Format Version 12.00
Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "src", "src", "{11111111-1111-1111-1111-111111111111}"
EndProject
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Core", "src\\Core\\Core.csproj", "{22222222-2222-2222-2222-222222222222}"
EndProject`;
    assert.deepEqual(readSolutionProjects(sln, '/ws/All.sln', 'sln'), ['/ws/src/Core/Core.csproj']);
  });

  it('lists the projects of a .slnx, in folders too, and of a .slnf relative to its solution', () => {
    const slnx =
      '<Solution><Folder Name="/src/"><Project Path="src/Core/Core.csproj" /></Folder><Project Path="App/App.csproj" /></Solution>';
    assert.deepEqual(readSolutionProjects(slnx, '/ws/All.slnx', 'slnx').sort(), ['/ws/App/App.csproj', '/ws/src/Core/Core.csproj']);
    const slnf = JSON.stringify({ solution: { path: '..\\All.sln', projects: ['src\\Core\\Core.csproj'] } });
    assert.deepEqual(readSolutionProjects(slnf, '/ws/filters/Core.slnf', 'slnf'), ['/ws/src/Core/Core.csproj']);
  });
});

describe('findBuildTarget', () => {
  const roots: string[] = [];
  const make = (files: Record<string, string>): string => {
    const root = workspace(files);
    roots.push(root);
    return root;
  };
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('finds the .slnx of the calculator fixture and the .sln of the multi fixture', async () => {
    assert.deepEqual(await findBuildTarget(hostFor(path.join(FIXTURES, 'calculator'))), {
      absPath: path.join(FIXTURES, 'calculator', 'Calculator.slnx'),
      relPath: 'Calculator.slnx',
      kind: 'slnx',
    });
    assert.equal((await findBuildTarget(hostFor(path.join(FIXTURES, 'multi')))).relPath, 'Multi.sln');
  });

  it('takes the only project when there is no solution (broken fixture)', async () => {
    assert.equal((await findBuildTarget(hostFor(path.join(FIXTURES, 'broken')))).relPath, 'Broken.csproj');
  });

  it('prefers the root solution over projects, and a migrated .slnx over its .sln', async () => {
    const root = make({ 'App.sln': '', 'App.slnx': '<Solution />', 'src/A/A.csproj': LIB, 'src/B/B.csproj': LIB });
    assert.equal((await findBuildTarget(hostFor(root))).relPath, 'App.slnx');
  });

  it('uses a named target, and refuses one that is missing, outside, or not buildable', async () => {
    const root = make({ 'src/A/A.csproj': LIB, 'src/B/B.csproj': LIB, 'notes.txt': '' });
    assert.deepEqual(await findBuildTarget(hostFor(root), 'src/B/B.csproj'), {
      absPath: path.join(root, 'src/B/B.csproj'),
      relPath: 'src/B/B.csproj',
      kind: 'project',
    });
    await assert.rejects(findBuildTarget(hostFor(root), 'src/C/C.csproj'), /does not exist/);
    await assert.rejects(findBuildTarget(hostFor(root), '../elsewhere/X.sln'), /outside the workspace/);
    await assert.rejects(findBuildTarget(hostFor(root), 'notes.txt'), /not a solution/);
  });

  it('lists the candidates when the choice is ambiguous', async () => {
    const root = make({ 'src/A/A.csproj': LIB, 'src/B/B.csproj': LIB });
    await assert.rejects(findBuildTarget(hostFor(root)), (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      assert.match(error.message, /src\/A\/A\.csproj, src\/B\/B\.csproj/);
      assert.deepEqual(error.details.candidates, ['src/A/A.csproj', 'src/B/B.csproj']);
      return true;
    });
    const two = make({ 'One.sln': '', 'Two.sln': '' });
    await assert.rejects(findBuildTarget(hostFor(two)), /Several solutions at the workspace root \(One\.sln, Two\.sln\)/);
    await assert.rejects(findBuildTarget(hostFor(make({ 'readme.md': '' }))), /No \.NET solution or project found/);
  });
});

describe('project graph and change scope (multi fixture)', () => {
  const root = path.join(FIXTURES, 'multi');
  const host = hostFor(root);
  const load = async () => loadProjectGraph(host, await findBuildTarget(host));
  const names = (projects: readonly { name: string }[]): string[] => projects.map((project) => project.name).sort();

  it('reads the four projects, their references and which hold tests', async () => {
    const graph = await load();
    assert.deepEqual(names(graph.projects), ['Reporting', 'Reporting.Tests', 'TextKit', 'TextKit.Tests']);
    assert.deepEqual(names(graph.projects.filter((project) => project.isTest)), ['Reporting.Tests', 'TextKit.Tests']);
    const reporting = graph.projects.find((project) => project.name === 'Reporting');
    assert.deepEqual(reporting?.references, [path.join(root, 'src/TextKit/TextKit.csproj')]);
    assert.equal(ownerOf(graph, path.join(root, 'src/TextKit/Slug.cs'))?.name, 'TextKit');
    assert.equal(ownerOf(graph, path.join(root, 'README.md')), null);
  });

  it('a change in the bottom library builds and tests everything that depends on it', async () => {
    const scope = scopeOfChanges(await load(), ['src/TextKit/Slug.cs'], root);
    assert.equal(scope.full, false);
    assert.equal(scope.needsRestore, false);
    assert.deepEqual(names(scope.buildRoots), ['Reporting.Tests', 'TextKit.Tests']);
    assert.deepEqual(names(scope.testProjects), ['Reporting.Tests', 'TextKit.Tests']);
  });

  it('a change in the top library builds and tests only its own test project', async () => {
    const scope = scopeOfChanges(await load(), ['src/Reporting/Report.cs', 'docs/notes.md'], root);
    assert.deepEqual(names(scope.buildRoots), ['Reporting.Tests']);
    assert.deepEqual(names(scope.testProjects), ['Reporting.Tests']);
  });

  it('a project file change restores; a build-wide file or an unknown source goes full', async () => {
    const graph = await load();
    const projectChange = scopeOfChanges(graph, ['tests/TextKit.Tests/TextKit.Tests.csproj'], root);
    assert.deepEqual([projectChange.full, projectChange.needsRestore], [false, true]);
    assert.deepEqual(names(projectChange.buildRoots), ['TextKit.Tests']);
    const props = scopeOfChanges(graph, ['Directory.Build.props'], root);
    assert.deepEqual([props.full, props.needsRestore], [true, true]);
    assert.deepEqual(names(props.testProjects), ['Reporting.Tests', 'TextKit.Tests']);
    assert.equal(scopeOfChanges(graph, ['tools/Gen.cs'], root).full, true);
    assert.equal(scopeOfChanges(graph, [], root).full, true);
  });
});
