// The parsing behind the global.json and nuget.config messages, on output captured from dotnet 10.0.401
// (test/integration/dotnet-setup-errors.test.ts runs the real thing).

import assert from 'node:assert/strict';
import { parseMsbuildOutput } from '../../../src/core/dotnet/msbuild-parser';
import { readPackageReferences, readPackageSources } from '../../../src/core/dotnet/restore-diagnostics';
import { parseSdkList, parseSdkNotFound, sdkPinMessage } from '../../../src/core/dotnet/sdk-check';

const SDK_NOT_FOUND = `The command could not be loaded, possibly because:
  * You intended to execute a .NET application:
      The application '--version' does not exist or is not a managed .dll or .exe.
  * You intended to execute a .NET SDK command:
      A compatible .NET SDK was not found.

Requested SDK version: 8.0.100
global.json file: /work/app/global.json

Installed SDKs:

Install the [8.0.100] .NET SDK or update [/work/app/global.json] to match an installed SDK.
`;

describe('global.json SDK pinning and nuget.config feed errors (parsing)', () => {
  it('reads the pinned version and the global.json from dotnet, and the installed SDKs from --list-sdks', () => {
    const pin = parseSdkNotFound(SDK_NOT_FOUND);
    assert.deepEqual(pin, { requested: '8.0.100', globalJson: '/work/app/global.json' });
    const installed = parseSdkList('9.0.306 [/usr/share/dotnet/sdk]\n10.0.401 [/usr/share/dotnet/sdk]\n');
    assert.deepEqual(installed, ['9.0.306', '10.0.401']);
    assert.equal(
      sdkPinMessage(pin as NonNullable<typeof pin>, installed),
      '/work/app/global.json pins .NET SDK 8.0.100, which is not installed (installed SDKs: 9.0.306, 10.0.401). ' +
        'Install SDK 8.0.100, or change "sdk.version" (or "rollForward") in that global.json to match an installed SDK.',
    );
    assert.equal(parseSdkNotFound('error: something else'), null);
  });

  it('joins NuGet detail lines to their error, once, and drops a trailing solution from the message', () => {
    const output = [
      '/ws/App.csproj : error NU1301: Unable to load the service index for source https://feed.example/v3/index.json.',
      '/ws/App.csproj : error NU1301:   Connection refused (127.0.0.1:9)',
      '/ws/App.csproj : error NU1301:   Connection refused',
      '/ws/App.csproj : error NU1301: Unable to load the service index for source https://feed.example/v3/index.json.',
      '/ws/App.csproj : error NU1301:   Connection refused (127.0.0.1:9)',
      '/ws/Lib.csproj : error NU1101: Unable to find package Contoso.X. No packages exist with this id in source(s): private [/ws/App.slnf]',
    ].join('\n');
    assert.deepEqual(
      parseMsbuildOutput(output, '/ws').errors.map((error) => [error.code, error.filePath, error.message]),
      [
        [
          'NU1301',
          'App.csproj',
          'Unable to load the service index for source https://feed.example/v3/index.json: Connection refused (127.0.0.1:9)',
        ],
        ['NU1101', 'Lib.csproj', 'Unable to find package Contoso.X. No packages exist with this id in source(s): private'],
      ],
    );
  });

  it('reads the feeds of a nuget.config and the package references of a project (central versions left out)', () => {
    const config =
      '<configuration><packageSources><clear /><add key="private" value="https://pkgs.example/v3/index.json" /><add key="local" value="./feed" /></packageSources></configuration>';
    assert.deepEqual(readPackageSources(config), [
      { key: 'private', source: 'https://pkgs.example/v3/index.json' },
      { key: 'local', source: './feed' },
    ]);
    const project =
      '<Project><ItemGroup><PackageReference Include="NUnit" /><PackageReference Include="Serilog" Version="4.0.0" /><PackageReference Include="A" VersionOverride="1.0.0" /></ItemGroup></Project>';
    assert.deepEqual(readPackageReferences(project), ['NUnit', 'Serilog 4.0.0', 'A 1.0.0']);
  });
});
