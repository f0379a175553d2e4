// Which baseline builds stop a run for its set-up: those that failed on a feed or a package, not on code.

import assert from 'node:assert/strict';
import type { BuildResult, CompilationError } from '../../../src/core/model';
import { RESTORE_ADVICE, restoreFailureMessage } from '../../../src/core/dotnet/restore-stop';

function error(code: string, message: string, filePath: string | null = 'App.csproj'): CompilationError {
  return { code, message, filePath, line: 0, column: 0 };
}

function build(errors: CompilationError[], success = false): BuildResult {
  return { success, errors, warnings: [], durationMs: 1 };
}

describe('restoreFailureMessage', () => {
  it('null for a build that failed on code, or passed', () => {
    assert.equal(restoreFailureMessage(build([error('CS0103', "The name 'x' does not exist", 'A.cs')])), null);
    assert.equal(restoreFailureMessage(build([], true)), null);
  });

  it('names each feed or package error once, then what to try', () => {
    const missing = error(
      'NU1101',
      'Unable to find package Contoso.Logging. No packages exist with this id in source(s): internal (feeds: internal = /srv/feed)',
    );
    assert.equal(
      restoreFailureMessage(
        build([
          missing,
          missing,
          error('NU1102', 'Unable to find package xunit with version (>= 99.0.0)', null),
          error('CS0246', 'The type or namespace name could not be found', 'A.cs'),
        ]),
      ),
      [
        'The baseline restore could not get the packages, so the run stopped before planning (no model was called):',
        '- NU1101 App.csproj: Unable to find package Contoso.Logging. No packages exist with this id in source(s): internal (feeds: internal = /srv/feed)',
        '- NU1102: Unable to find package xunit with version (>= 99.0.0)',
        RESTORE_ADVICE,
      ].join('\n'),
    );
  });

  it('stops on every code of a feed that cannot give the package', () => {
    for (const code of ['NU1100', 'NU1101', 'NU1102', 'NU1103', 'NU1301', 'NU1302'])
      assert.notEqual(restoreFailureMessage(build([error(code, 'x')])), null, code);
    assert.equal(restoreFailureMessage(build([error('NU1605', 'Detected package downgrade')])), null);
  });
});
