import assert from 'node:assert/strict';
import { diagnosticIdentity, parseMsbuildLine, parseMsbuildOutput, toWorkspacePath } from '../../../src/core/dotnet/msbuild-parser';

const ROOT = '/work/ws';

// Captured from `dotnet build -nologo -clp:NoSummary -tl:off -p:GenerateFullPaths=true` on .NET 10 (paths moved to /work/ws).
const BROKEN_BUILD = `  Determining projects to restore...
  All projects are up-to-date for restore.
/work/ws/Greeter.cs(7,13): warning CS0168: The variable 'unused' is declared but never used [/work/ws/Broken.csproj]
/work/ws/Greeter.cs(8,26): error CS0103: The name 'nmae' does not exist in the current context [/work/ws/Broken.csproj]
/work/ws/Greeter.cs(11,51): error CS1061: 'string' does not contain a definition for 'Lenght' and no accessible extension method 'Lenght' accepting a first argument of type 'string' could be found (are you missing a using directive or an assembly reference?) [/work/ws/Broken.csproj]

Build FAILED.

/work/ws/Greeter.cs(7,13): warning CS0168: The variable 'unused' is declared but never used [/work/ws/Broken.csproj]
/work/ws/Greeter.cs(8,26): error CS0103: The name 'nmae' does not exist in the current context [/work/ws/Broken.csproj]
/work/ws/Greeter.cs(11,51): error CS1061: 'string' does not contain a definition for 'Lenght' and no accessible extension method 'Lenght' accepting a first argument of type 'string' could be found (are you missing a using directive or an assembly reference?) [/work/ws/Broken.csproj]
    1 Warning(s)
    2 Error(s)

Time Elapsed 00:00:09.95
`;

describe('parseMsbuildOutput', () => {
  it('reads errors and warnings with workspace-relative paths, once each despite the summary', () => {
    const { errors, warnings } = parseMsbuildOutput(BROKEN_BUILD, ROOT);
    assert.deepEqual(errors, [
      {
        code: 'CS0103',
        message: "The name 'nmae' does not exist in the current context",
        filePath: 'Greeter.cs',
        line: 8,
        column: 26,
        project: 'Broken.csproj',
      },
      {
        code: 'CS1061',
        message:
          "'string' does not contain a definition for 'Lenght' and no accessible extension method 'Lenght' accepting a first argument of type 'string' could be found (are you missing a using directive or an assembly reference?)",
        filePath: 'Greeter.cs',
        line: 11,
        column: 51,
        project: 'Broken.csproj',
      },
    ]);
    assert.deepEqual(warnings, [
      {
        code: 'CS0168',
        message: "The variable 'unused' is declared but never used",
        filePath: 'Greeter.cs',
        line: 7,
        column: 13,
        project: 'Broken.csproj',
      },
    ]);
  });

  it('finds nothing in a clean build', () => {
    const clean =
      '  Calculator -> /work/ws/src/Calculator/bin/Debug/net10.0/Calculator.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)\n';
    assert.deepEqual(parseMsbuildOutput(clean, ROOT), { errors: [], warnings: [] });
  });

  it('keeps the same message reported by two projects apart', () => {
    const output = [
      "/work/ws/shared/Link.cs(3,5): error CS0246: The type or namespace name 'Foo' could not be found [/work/ws/a/A.csproj]",
      "/work/ws/shared/Link.cs(3,5): error CS0246: The type or namespace name 'Foo' could not be found [/work/ws/b/B.csproj]",
    ].join('\r\n');
    assert.deepEqual(
      parseMsbuildOutput(output, ROOT).errors.map((error) => error.project),
      ['a/A.csproj', 'b/B.csproj'],
    );
  });
});

describe('parseMsbuildLine', () => {
  it('reads an error with no file (MSBUILD : error MSB1009)', () => {
    assert.deepEqual(parseMsbuildLine('MSBUILD : error MSB1009: Project file does not exist.', ROOT), {
      severity: 'error',
      diagnostic: { code: 'MSB1009', message: 'Project file does not exist.', filePath: null, line: 0, column: 0 },
    });
  });

  it('reads a compiler error with no file and a target framework on the project (CSC : error CS5001)', () => {
    const line =
      "CSC : error CS5001: Program does not contain a static 'Main' method suitable for an entry point [/work/ws/app/App.csproj::TargetFramework=net10.0]";
    assert.deepEqual(parseMsbuildLine(line, ROOT)?.diagnostic, {
      code: 'CS5001',
      message: "Program does not contain a static 'Main' method suitable for an entry point",
      filePath: null,
      line: 0,
      column: 0,
      project: 'app/App.csproj',
    });
  });

  it('reads a restore error on a project file (NU1101)', () => {
    const line =
      '/work/ws/app/App.csproj : error NU1101: Unable to find package No.Such.Package. No packages exist with this id in source(s): local';
    assert.deepEqual(parseMsbuildLine(line, ROOT)?.diagnostic, {
      code: 'NU1101',
      message: 'Unable to find package No.Such.Package. No packages exist with this id in source(s): local',
      filePath: 'app/App.csproj',
      line: 0,
      column: 0,
    });
  });

  it('reads the four-number location form (line,col,endLine,endCol)', () => {
    const line =
      "/work/ws/src/Lib/Api.cs(12,9,12,30): warning CA1822: Member 'Size' does not access instance data and can be marked as static [/work/ws/src/Lib/Lib.csproj]";
    const parsed = parseMsbuildLine(line, ROOT);
    assert.equal(parsed?.severity, 'warning');
    assert.deepEqual(parsed?.diagnostic, {
      code: 'CA1822',
      message: "Member 'Size' does not access instance data and can be marked as static",
      filePath: 'src/Lib/Api.cs',
      line: 12,
      column: 9,
      project: 'src/Lib/Lib.csproj',
    });
  });

  it('reads a line-only location, an error without a code, and fatal errors', () => {
    assert.deepEqual(
      parseMsbuildLine('/work/ws/build/custom.targets(10): error : The release notes are missing. [/work/ws/A.csproj]', ROOT)?.diagnostic,
      {
        code: '',
        message: 'The release notes are missing.',
        filePath: 'build/custom.targets',
        line: 10,
        column: 0,
        project: 'A.csproj',
      },
    );
    assert.equal(parseMsbuildLine("CSC : fatal error CS2001: Source file '/x.cs' could not be found.", ROOT)?.severity, 'error');
  });

  it('keeps paths outside the workspace absolute, and a bracket in the message in the message', () => {
    const line =
      '/usr/share/dotnet/sdk/10.0.401/Microsoft.Common.CurrentVersion.targets(2433,5): warning MSB3277: Found conflicts between different versions of "System.Text.Json" [/work/ws/App.csproj]';
    assert.equal(
      parseMsbuildLine(line, ROOT)?.diagnostic.filePath,
      '/usr/share/dotnet/sdk/10.0.401/Microsoft.Common.CurrentVersion.targets',
    );
    const indexer = "/work/ws/A.cs(1,1): error CS0021: Cannot apply indexing with [] to an expression of type 'int' [/work/ws/A.csproj]";
    assert.equal(parseMsbuildLine(indexer, ROOT)?.diagnostic.message, "Cannot apply indexing with [] to an expression of type 'int'");
  });

  it('ignores lines that only mention errors', () => {
    assert.equal(parseMsbuildLine('    2 Error(s)', ROOT), null);
    assert.equal(parseMsbuildLine('Build FAILED.', ROOT), null);
    assert.equal(parseMsbuildLine('  Restored /work/ws/error-handling/Errors.csproj (in 300 ms).', ROOT), null);
  });
});

describe('toWorkspacePath and diagnosticIdentity', () => {
  it('makes paths inside the workspace relative with forward slashes', () => {
    assert.equal(toWorkspacePath('/work/ws/src/A.cs', ROOT), 'src/A.cs');
    assert.equal(toWorkspacePath('/work/other/A.cs', ROOT), '/work/other/A.cs');
    assert.equal(toWorkspacePath('src\\A.cs', ROOT), 'src/A.cs');
  });

  it('ignores line numbers, which move when code above changes', () => {
    const a = { code: 'CS0103', message: 'x', filePath: 'A.cs', line: 3, column: 1 };
    assert.equal(diagnosticIdentity(a), diagnosticIdentity({ ...a, line: 9, column: 4 }));
    assert.notEqual(diagnosticIdentity(a), diagnosticIdentity({ ...a, code: 'CS0104' }));
  });
});
