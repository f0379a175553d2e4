// The compile gate and check_code with a scripted checker: a project the engine answers "unknown"
// never bounces the coder, staged build inputs travel to the checker, and the report names the
// unknown projects with their reasons.

import * as assert from 'node:assert/strict';
import type { CodeCheckOptions, CodeCheckResult, CodeChecker } from '../../../src/core/host';
import { compileGate } from '../../../src/core/csharp/engine/compile-gate';
import { checkReport, stagedSources } from '../../../src/core/csharp/engine/code-checker';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createMemoryHost } from '../../support/memory-host';

class ScriptedChecker implements CodeChecker {
  readonly calls: Array<{ files: string[]; buildInputs: readonly string[] | undefined }> = [];
  constructor(private readonly result: CodeCheckResult) {}
  async check(files: ReadonlyArray<{ path: string; text: string | null }>, options: CodeCheckOptions = {}): Promise<CodeCheckResult> {
    this.calls.push({ files: files.map((f) => f.path), buildInputs: options.buildInputs });
    return this.result;
  }
}

const UNRESTORED = { project: 'Geometry.Tests', reason: 'its packages are not restored yet (no obj/project.assets.json)' };

describe('the compile gate and unknown projects', () => {
  it('passes when the only project touched is unknown, and sends the staged project file as a build input', async () => {
    const checker = new ScriptedChecker({ projects: [], errors: [], total: 0, unknown: [UNRESTORED] });
    const host = { ...createMemoryHost({ 'tests/Geometry.Tests/Geometry.Tests.csproj': '<Project />' }), codeCheck: checker };
    const overlay = new StagedOverlay(host);
    await overlay.write('tests/Geometry.Tests/NewTests.cs', 'using NUnit.Framework;\n');
    await overlay.write('tests/Geometry.Tests/Geometry.Tests.csproj', '<Project><ItemGroup /></Project>\n');
    await overlay.write('Directory.Packages.props', '<Project />\n');
    await overlay.write('nuget.config', '<configuration />\n');
    const records: Array<Record<string, unknown>> = [];
    const verdict = await compileGate({
      host,
      overlay,
      bounced: 0,
      trace: { record: (event: Record<string, unknown>) => records.push(event) } as never,
    });
    assert.deepEqual(verdict, { pass: true });
    assert.deepEqual(checker.calls, [
      {
        files: ['tests/Geometry.Tests/NewTests.cs'],
        buildInputs: ['Directory.Packages.props', 'nuget.config', 'tests/Geometry.Tests/Geometry.Tests.csproj'],
      },
    ]);
    assert.equal(records.length, 1);
    assert.equal(records[0]?.ok, true);
    assert.equal(records[0]?.errors, 0);
    assert.equal(
      records[0]?.detail,
      'Not compiled here, the build decides (do not change code or packages for this): Geometry.Tests (its packages are not restored yet (no obj/project.assets.json)).',
    );
  });

  it('still bounces on errors in the projects it could judge', async () => {
    const error = {
      filePath: 'src/Geometry/Shapes.cs',
      line: 3,
      column: 5,
      code: 'CS0103',
      message: "The name 'y' does not exist in the current context",
      project: 'Geometry',
    };
    const checker = new ScriptedChecker({ projects: ['Geometry'], errors: [error], total: 1, unknown: [UNRESTORED] });
    const host = { ...createMemoryHost({}), codeCheck: checker };
    const overlay = new StagedOverlay(host);
    await overlay.write('src/Geometry/Shapes.cs', 'class C { int X() => y; }\n');
    const verdict = await compileGate({ host, overlay, bounced: 0 });
    assert.deepEqual(verdict, {
      pass: false,
      message:
        'Not submitted yet: the system compiled your staged edits (check 1 of 3) and found 1 new compile error(s) in Geometry with your staged edits:\n' +
        "src/Geometry/Shapes.cs:3:5: error CS0103: The name 'y' does not exist in the current context\n" +
        'Not compiled here, the build decides (do not change code or packages for this): Geometry.Tests (its packages are not restored yet (no obj/project.assets.json)).\n' +
        'Fix them, then call submit_changes again.',
    });
  });

  it('reports a clean check with the unknown projects named', () => {
    assert.equal(
      checkReport({ projects: ['Geometry'], errors: [], total: 0, unknown: [UNRESTORED] }, ['global.json']),
      'No new compile errors (compiled Geometry with your staged edits).\nNot checked here (the build checks them): global.json.\n' +
        'Not compiled here, the build decides (do not change code or packages for this): Geometry.Tests (its packages are not restored yet (no obj/project.assets.json)).',
    );
    assert.equal(
      checkReport({ projects: ['Geometry'], errors: [], total: 0 }, []),
      'No new compile errors (compiled Geometry with your staged edits).',
    );
  });

  it('counts global.json, nuget.config, lock files and solution filters as build inputs, not other JSON', async () => {
    const host = createMemoryHost({});
    const overlay = new StagedOverlay(host);
    for (const rel of ['global.json', 'src/NuGet.Config', 'src/A/packages.lock.json', 'A.slnf', 'src/A/appsettings.json', 'src/A/A.cs'])
      await overlay.write(rel, '{}\n');
    const { files, unchecked } = await stagedSources(overlay);
    assert.deepEqual(
      files.map((f) => f.path),
      ['src/A/A.cs'],
    );
    assert.deepEqual(unchecked, ['A.slnf', 'global.json', 'src/A/packages.lock.json', 'src/NuGet.Config']);
  });
});
