// The phases' merged change is checked as a staged submission is (code-checker's changedSources):
// its C# files with their merged text (null: deleted), its build inputs left to the build, the rest
// not sent; its errors make one note, none or an unavailable engine none.

import assert from 'node:assert/strict';
import type { CodeCheckResult, Host } from '../../../src/core/host';
import type { FileEdit } from '../../../src/core/model';
import { EngineUnavailableError } from '../../../src/core/csharp/engine/errors';
import { mergedCompileNote } from '../../../src/core/workflow/parallel-compile';

function edit(filePath: string, newContent: string | null): FileEdit {
  return { filePath, type: newContent === null ? 'DELETE' : 'MODIFY', originalContent: 'old', newContent, diffText: '' };
}

const EDITS = [
  edit('src/Lib/A.cs', 'class A { }\n'),
  edit('src/Lib/Gone.CS', null),
  edit('src/Lib/Lib.csproj', '<Project />'),
  edit('README.md', '# Lib'),
  edit('global.json', '{}'),
];

function hostAnswering(answer: () => CodeCheckResult): { host: Host; calls: unknown[] } {
  const calls: unknown[] = [];
  const codeCheck = {
    check: (files: unknown, options?: { buildInputs?: readonly string[] }) => {
      calls.push({ files, buildInputs: options?.buildInputs });
      return Promise.resolve(answer());
    },
  };
  return { host: { codeCheck } as unknown as Host, calls };
}

describe('mergedCompileNote', () => {
  it('sends the C# files with their merged text and names the build inputs; a clean check is no note', async () => {
    const { host, calls } = hostAnswering(() => ({ projects: ['src/Lib/Lib.csproj'], errors: [], total: 0 }));
    assert.equal(await mergedCompileNote(host, EDITS), null);
    assert.deepEqual(calls, [
      {
        files: [
          { path: 'src/Lib/A.cs', text: 'class A { }\n' },
          { path: 'src/Lib/Gone.CS', text: null },
        ],
        buildInputs: ['src/Lib/Lib.csproj', 'global.json'],
      },
    ]);
  });

  it("lists the merged change's errors", async () => {
    const error = { filePath: 'src/Lib/A.cs', line: 1, column: 11, code: 'CS0103', message: "The name 'Old' does not exist" };
    const { host } = hostAnswering(() => ({ projects: ['src/Lib/Lib.csproj'], errors: [error], total: 1 }));
    assert.equal(
      await mergedCompileNote(host, EDITS),
      "The phases' merged change does not compile (each phase compiled on its own); 1 error(s):\n" +
        "src/Lib/A.cs:1:11: error CS0103: The name 'Old' does not exist",
    );
  });

  it('asks nothing without a C# file, and is no note when the engine is unavailable', async () => {
    const { host, calls } = hostAnswering(() => {
      throw new EngineUnavailableError('no engine', 'missing');
    });
    assert.equal(await mergedCompileNote(host, [edit('src/Lib/Lib.csproj', '<Project />')]), null);
    assert.deepEqual(calls, []);
    assert.equal(await mergedCompileNote(host, EDITS), null);
    assert.equal(calls.length, 1);
  });
});
