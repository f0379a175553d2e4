// One canonical path per file where names ignore case (Windows, macOS), simulated with a case-insensitive
// host double: staged edits, the project graph, crash recovery and the run lock's machine.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadProjectGraph, scopeOfChanges } from '../../../src/core/dotnet/project-graph';
import { machineId } from '../../../src/core/workflow/machine-id';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { ApplyIntentLog } from '../../../src/core/workflow/edit-journal-wal';
import { initialContext } from '../../../src/core/workflow/run-context';
import { toCodingState } from '../../../src/core/workflow/coding-state';
import { RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import { acquireRunLock, runLockPath } from '../../../src/core/workflow/run-lock';
import { createCaseInsensitiveHost } from '../../support/case-insensitive-host';
import { createMemoryHost } from '../../support/memory-host';
import { runInput } from '../workflow/samples';

const LIB = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n';

describe('one canonical path per file where names ignore case', () => {
  describe('staged edits', () => {
    it('Calculator.cs and calculator.cs are one staged file: the second edit replaces the first, under the first spelling', async () => {
      const host = createCaseInsensitiveHost({ 'src/Calculator.cs': 'class Calculator {}\n' });
      const overlay = new StagedOverlay(host);
      await overlay.write('src/Calculator.cs', 'class Calculator { int A; }\n');
      await overlay.write('SRC/calculator.cs', 'class Calculator { int B; }\n');
      assert.deepEqual(overlay.stagedPaths(), ['src/Calculator.cs']);
      assert.equal(await overlay.read('src/CALCULATOR.cs'), 'class Calculator { int B; }\n');
      const edits = await overlay.edits();
      assert.deepEqual(
        edits.map((edit) => [edit.filePath, edit.type, edit.newContent]),
        [['src/Calculator.cs', 'MODIFY', 'class Calculator { int B; }\n']],
      );
    });

    it('a file deleted in another case leaves the listing; a restored overlay keeps one entry', async () => {
      const host = createCaseInsensitiveHost({ 'src/Calculator.cs': 'x\n', 'src/Other.cs': 'y\n' });
      const overlay = new StagedOverlay(host);
      await overlay.delete('src/calculator.cs');
      assert.deepEqual(await overlay.listFiles('src'), ['src/Other.cs']);
      const restored = StagedOverlay.fromJSON(host, {
        version: 1,
        files: [
          { path: 'src/New.cs', content: 'one\n', bom: false, eol: 'lf' },
          { path: 'src/new.cs', content: 'two\n', bom: false, eol: 'lf' },
        ],
      });
      assert.deepEqual(restored.stagedPaths(), ['src/New.cs']);
      assert.equal(await restored.read('src/NEW.cs'), 'two\n');
    });

    it('where case matters, two spellings stay two files', async () => {
      const overlay = new StagedOverlay({ ...createMemoryHost(), fs: { ...createMemoryHost().fs, caseInsensitive: false } });
      await overlay.write('a.cs', '1\n');
      await overlay.write('A.cs', '2\n');
      assert.deepEqual(overlay.stagedPaths(), ['A.cs', 'a.cs']);
    });
  });

  describe('the journal', () => {
    it('keeps one original per file: a later edit in another case does not journal the first edit as the original', async () => {
      const host = createCaseInsensitiveHost({ 'src/Calc.cs': 'v0\n' });
      const store = new RunStore(host);
      const at = '2026-01-01T00:00:00.000Z';
      await store.save({
        schemaVersion: STATE_SCHEMA_VERSION,
        runId: 'r1',
        createdAt: at,
        updatedAt: at,
        codingState: toCodingState(initialContext(runInput()), 'VALIDATE', at),
        machine: {},
      });
      await store.journal.applyEdits('r1', [makeFileEdit('src/Calc.cs', 'v0\n', 'v1\n')]);
      await store.journal.applyEdits('r1', [makeFileEdit('src/calc.cs', 'v1\n', 'v2\n')]);
      assert.equal(host.files.get('src/Calc.cs'), 'v2\n');
      assert.deepEqual(await store.journal.touchedFiles('r1'), ['src/Calc.cs']);
      assert.deepEqual(await store.journal.revert('r1'), { restored: ['src/Calc.cs'], deleted: [] });
      assert.equal(host.files.get('src/Calc.cs'), 'v0\n');
    });
  });

  describe('the project graph', () => {
    const files = {
      'App.slnx':
        '<Solution>\n  <Project Path="src/TextKit/TextKit.csproj" />\n  <Project Path="src/Reporting/Reporting.csproj" />\n</Solution>\n',
      'src/TextKit/TextKit.csproj': LIB,
      // The reference spells the folder and the file in another case.
      'src/Reporting/Reporting.csproj': LIB.replace(
        '</Project>',
        '<ItemGroup><ProjectReference Include="..\\textkit\\TEXTKIT.csproj" /></ItemGroup></Project>',
      ),
    };

    it('a ProjectReference in another case is the same project (one node), so its dependents are affected', async () => {
      const host = createCaseInsensitiveHost(files);
      const root = host.workspaceRoot;
      const graph = await loadProjectGraph(host, { absPath: path.join(root, 'App.slnx'), relPath: 'App.slnx', kind: 'slnx' });
      assert.deepEqual(
        graph.projects.map((project) => project.relPath),
        ['src/TextKit/TextKit.csproj', 'src/Reporting/Reporting.csproj'],
      );
      const scope = scopeOfChanges(graph, ['src/textkit/Slug.cs'], root);
      assert.equal(scope.full, false);
      assert.deepEqual(
        scope.affected?.map((project) => project.name),
        ['TextKit', 'Reporting'],
      );
      assert.deepEqual(
        scopeOfChanges(graph, ['SRC/TEXTKIT/textkit.csproj'], root).affected?.map((project) => project.name),
        ['TextKit', 'Reporting'],
      );
    });
  });

  describe('crash recovery and the run lock', () => {
    const runs = '/memory-workspace/.ironbees/runs';
    function logFor(host: ReturnType<typeof createMemoryHost>): ApplyIntentLog {
      return new ApplyIntentLog(host, (runId) => path.join(runs, runId), runs);
    }
    function record(fields: Record<string, unknown>): string {
      return JSON.stringify({ version: 1, runId: 'r1', startedAt: '2026-11-27T00:00:00.000Z', done: false, files: [], ...fields });
    }

    it('recovers a record written here under another host name (macOS renames the machine) and another case of the root', async () => {
      const host = createCaseInsensitiveHost();
      host.files.set(
        '.ironbees/runs/r1/edits/apply-intent.json',
        record({ hostname: 'Foo-2.local', machineId: machineId(), workspaceRoot: host.workspaceRoot.toUpperCase() }),
      );
      assert.equal((await logFor(host).unfinished('r1'))?.runId, 'r1');
    });

    it("never recovers another machine's record, whatever its host name; nor another root where case matters", async () => {
      const host = createCaseInsensitiveHost();
      host.files.set(
        '.ironbees/runs/r1/edits/apply-intent.json',
        record({ hostname: os.hostname(), machineId: 'f'.repeat(32), workspaceRoot: host.workspaceRoot }),
      );
      assert.equal(await logFor(host).unfinished('r1'), null);
      const strict = { ...createMemoryHost(), fs: { ...createMemoryHost().fs, caseInsensitive: false } };
      strict.files.set(
        '.ironbees/runs/r1/edits/apply-intent.json',
        record({ hostname: os.hostname(), machineId: machineId(), workspaceRoot: strict.workspaceRoot.toUpperCase() }),
      );
      assert.equal(await logFor(strict).unfinished('r1'), null);
    });

    it("takes over a dead run's lock written here under another host name; never one of another machine id", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-lock-machine-'));
      try {
        const lockFile = runLockPath(dir);
        fs.mkdirSync(path.dirname(lockFile), { recursive: true });
        const dead = 2 ** 22 + 12345; // above Linux's default pid_max: no such process
        fs.writeFileSync(
          lockFile,
          JSON.stringify({ pid: dead, hostname: 'Foo.local', machineId: machineId(), runId: 'crashed', startedAt: '' }),
        );
        acquireRunLock(dir, 'after-rename').release();
        fs.writeFileSync(
          lockFile,
          JSON.stringify({ pid: dead, hostname: os.hostname(), machineId: 'e'.repeat(32), runId: 'elsewhere', startedAt: '' }),
        );
        assert.throws(() => acquireRunLock(dir, 'mine'), /Run elsewhere is in progress on this workspace \(process \d+ on /);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('the machine id is made once and kept in the user cache folder', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-machine-id-'));
      try {
        const id = machineId(dir);
        assert.match(id, /^[0-9a-f]{32}$/);
        assert.equal(fs.readFileSync(path.join(dir, 'machine-id'), 'utf8'), `${id}\n`);
        assert.equal(machineId(dir), id);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
