import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createMemoryHost } from '../../support/memory-host';
import {
  declaredFrameworks,
  describeSkipped,
  parseNetCoreRuntimes,
  planFrameworks,
  runtimeNeededBy,
  targetFrameworksOf,
} from '../../../src/core/dotnet/target-frameworks';

const LIST_RUNTIMES = [
  'Microsoft.AspNetCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]',
  'Microsoft.NETCore.App 9.0.11 [/usr/share/dotnet/shared/Microsoft.NETCore.App]',
  'Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]',
  '',
].join('\n');

describe('target frameworks of multi-targeted test projects', () => {
  it('reads the declared frameworks (plural wins over singular, the last setting wins)', () => {
    assert.deepEqual(
      declaredFrameworks('<Project><PropertyGroup><TargetFrameworks> net10.0; net8.0 </TargetFrameworks></PropertyGroup></Project>'),
      ['net10.0', 'net8.0'],
    );
    assert.deepEqual(declaredFrameworks('<Project><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>'), [
      'net10.0',
    ]);
    assert.equal(declaredFrameworks('<Project Sdk="Microsoft.NET.Sdk"></Project>'), null);
    assert.equal(declaredFrameworks('not xml <'), null);
  });

  it('takes the frameworks from Directory.Build.props when the project sets none, and gives up on properties', async () => {
    const host = createMemoryHost({
      'Directory.Build.props': '<Project><PropertyGroup><TargetFrameworks>net10.0;net9.0</TargetFrameworks></PropertyGroup></Project>',
      'tests/A/A.csproj': '<Project Sdk="Microsoft.NET.Sdk"></Project>',
      'tests/B/B.csproj': '<Project><PropertyGroup><TargetFrameworks>$(Frameworks)</TargetFrameworks></PropertyGroup></Project>',
    });
    assert.deepEqual(await targetFrameworksOf(host, path.join(host.workspaceRoot, 'tests/A/A.csproj')), ['net10.0', 'net9.0']);
    assert.equal(await targetFrameworksOf(host, path.join(host.workspaceRoot, 'tests/B/B.csproj')), null);
  });

  it('reads the installed .NET runtimes and the runtime each framework needs', () => {
    assert.deepEqual(parseNetCoreRuntimes(LIST_RUNTIMES), ['9.0.11', '10.0.12']);
    assert.equal(runtimeNeededBy('net10.0'), '10.0');
    assert.equal(runtimeNeededBy('net8.0-windows'), '8.0');
    assert.equal(runtimeNeededBy('netcoreapp3.1'), '3.1');
    assert.equal(runtimeNeededBy('net48'), null);
    assert.equal(runtimeNeededBy('netstandard2.0'), null);
  });

  it('tests the frameworks with an installed runtime and names the others with why', () => {
    const runtimes = parseNetCoreRuntimes(LIST_RUNTIMES);
    assert.deepEqual(planFrameworks(['net10.0', 'net9.0', 'net8.0', 'net48'], runtimes, 'linux'), {
      run: ['net10.0', 'net9.0'],
      skipped: [
        { framework: 'net8.0', reason: 'the .NET 8.0 runtime is not installed (installed: 9.0.11, 10.0.12)' },
        { framework: 'net48', reason: '.NET Framework tests run only on Windows' },
      ],
    });
    assert.deepEqual(planFrameworks(['net10.0', 'net48'], runtimes, 'win32'), { run: ['net10.0', 'net48'], skipped: [] });
    assert.deepEqual(planFrameworks(['net10.0'], runtimes, 'linux'), { run: [], skipped: [] }, 'a single framework is tested as it is');
    assert.deepEqual(
      describeSkipped('Units.Tests', [{ framework: 'net8.0', reason: 'the .NET 8.0 runtime is not installed (installed: 10.0.12)' }]),
      ['Units.Tests net8.0 (the .NET 8.0 runtime is not installed (installed: 10.0.12))'],
    );
  });
});
