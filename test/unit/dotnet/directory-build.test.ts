import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node/index';
import { loadProjectGraph, scopeOfChanges } from '../../../src/core/dotnet/project-graph';
import { findBuildTarget } from '../../../src/core/dotnet/target';
import { runKindOf } from '../../../src/core/dotnet/test-platform';
import { createMemoryHost } from '../../support/memory-host';

const NUNIT = path.join(__dirname, '..', '..', 'fixtures', 'nunit');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('what projects get from Directory.Build.props/targets (references, test-runner opt-ins)', () => {
  it('an edit in the library the targets file references rebuilds and tests all three NUnit projects (nunit fixture)', async () => {
    const host = createNodeHost(NUNIT, { logger: quietLogger });
    const graph = await loadProjectGraph(host, await findBuildTarget(host));
    assert.equal(graph.target.relPath, 'Geometry.sln');
    const geometry = path.join(NUNIT, 'src', 'Geometry', 'Geometry.csproj');
    for (const version of [3, 4, 5]) {
      const tests = graph.projects.find((project) => project.name === `Geometry.NUnit${version}.Tests`);
      assert.deepEqual(tests?.references, [geometry], `NUnit${version} references Geometry through Directory.Build.targets`);
      assert.equal(tests?.isTest, true);
    }
    assert.deepEqual(graph.byPath.get(geometry)?.references, [], 'the library does not reference itself (the condition is ignored)');
    const scope = scopeOfChanges(graph, ['src/Geometry/Shapes.cs'], NUNIT);
    assert.equal(scope.full, false);
    assert.deepEqual(scope.testProjects.map((project) => project.name).sort(), [
      'Geometry.NUnit3.Tests',
      'Geometry.NUnit4.Tests',
      'Geometry.NUnit5.Tests',
    ]);
    assert.deepEqual(scope.buildRoots.map((project) => project.name).sort(), [
      'Geometry.NUnit3.Tests',
      'Geometry.NUnit4.Tests',
      'Geometry.NUnit5.Tests',
    ]);
  });

  it('reads the projects of a solution filter relative to its solution (mstest fixture)', async () => {
    const root = path.join(__dirname, '..', '..', 'fixtures', 'mstest');
    const host = createNodeHost(root, { logger: quietLogger });
    const graph = await loadProjectGraph(host, await findBuildTarget(host, 'Ledger.Tests.slnf'));
    assert.equal(graph.target.kind, 'slnf');
    assert.deepEqual(graph.projects.map((project) => project.relPath).sort(), [
      'src/Ledger/Ledger.csproj',
      'tests/Ledger.Tests/Ledger.Tests.csproj',
    ]);
  });

  it('test-runner opt-ins and extensions set in Directory.Build.props/targets hold for the projects under them', async () => {
    const host = createMemoryHost({
      'App.slnx': '<Solution><Project Path="tests/A.Tests/A.Tests.csproj" /><Project Path="other/B.Tests/B.Tests.csproj" /></Solution>',
      'tests/Directory.Build.props':
        '<Project><PropertyGroup><EnableMSTestRunner>true</EnableMSTestRunner><TestingPlatformDotnetTestSupport>true</TestingPlatformDotnetTestSupport><RunSettingsFilePath>$(MSBuildThisFileDirectory)ci.runsettings</RunSettingsFilePath></PropertyGroup></Project>',
      'tests/Directory.Build.targets':
        '<Project><ItemGroup><PackageReference Include="Microsoft.Testing.Extensions.HangDump" /></ItemGroup></Project>',
      'tests/A.Tests/A.Tests.csproj':
        '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="MSTest" /></ItemGroup></Project>',
      'other/B.Tests/B.Tests.csproj':
        '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="MSTest" /></ItemGroup></Project>',
    });
    const graph = await loadProjectGraph(host, await findBuildTarget(host));
    const runnerOf = (name: string) => graph.projects.find((project) => project.name === name)?.testRunner;
    assert.deepEqual(runnerOf('A.Tests'), {
      mtpRunner: true,
      dotnetTestSupport: true,
      xunitV3: false,
      trxReport: true,
      hangDump: true,
      runSettings: true,
    });
    assert.deepEqual(
      runnerOf('B.Tests'),
      { mtpRunner: false, dotnetTestSupport: false, xunitV3: false, trxReport: true, hangDump: false, runSettings: false },
      'the files above tests/ only',
    );
    assert.deepEqual([runKindOf('vstest', runnerOf('A.Tests')), runKindOf('vstest', runnerOf('B.Tests'))], ['mtp-direct', 'vstest']);
  });
});
