// Where each project's assembly was built, from the build's streamed output: the tests run from there
// without `dotnet test` evaluating the project again.

import assert from 'node:assert/strict';
import { BuildOutputCollector, BuiltAssemblies } from '../../../src/core/dotnet/built-assemblies';

describe('built assemblies from the build output', () => {
  it('reads "Name -> path.dll" lines across chunks and streams, one path per target framework', () => {
    const collector = new BuildOutputCollector();
    collector.note('  Ledger -> /ws/src/Ledger/bin/Debug/net10.0/Ledger.dll\n  Ledger.Te');
    collector.note('/ws/src/A.cs(3,1): warning CS0168: x -> y [/ws/src/A.csproj]\n', 'stderr');
    collector.note(
      'sts -> /ws/tests/Ledger.Tests/bin/Debug/net8.0/Ledger.Tests.dll\n  Ledger.Tests -> /ws/tests/Ledger.Tests/bin/Debug/net10.0/Ledger.Tests.dll\n',
    );
    collector.note('  Tool -> relative/Tool.dll\n  Native -> /ws/native/Native.so\n  Last -> /ws/Last/bin/Last.dll');
    assert.deepEqual(
      [...collector.found()],
      [
        ['Ledger', ['/ws/src/Ledger/bin/Debug/net10.0/Ledger.dll']],
        [
          'Ledger.Tests',
          ['/ws/tests/Ledger.Tests/bin/Debug/net8.0/Ledger.Tests.dll', '/ws/tests/Ledger.Tests/bin/Debug/net10.0/Ledger.Tests.dll'],
        ],
        ['Last', ['/ws/Last/bin/Last.dll']],
      ],
    );
  });

  it('a later build replaces what an earlier one said about a project; a name two projects share is never matched', () => {
    const assemblies = new BuiltAssemblies();
    assemblies.remember(
      new Map([
        ['A.Tests', ['/ws/a/bin/Debug/A.Tests.dll']],
        ['Dup', ['/ws/x/Dup.dll']],
      ]),
    );
    assemblies.remember(new Map([['A.Tests', ['/ws/a/bin/Release/A.Tests.dll']]]));
    const projects = [
      { absPath: '/ws/a/A.Tests.csproj', name: 'A.Tests' },
      { absPath: '/ws/x/Dup.csproj', name: 'Dup' },
      { absPath: '/ws/y/Dup.csproj', name: 'Dup' },
      { absPath: '/ws/b/B.Tests.csproj', name: 'B.Tests' },
    ];
    assert.deepEqual([...assemblies.forProjects(projects)], [['/ws/a/A.Tests.csproj', ['/ws/a/bin/Release/A.Tests.dll']]]);
  });
});
