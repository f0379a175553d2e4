// The engine follows restores, offline: a workspace whose App project asks for a package no feed
// has (its nuget.config names only an empty local folder). The restore fails for App: the check
// answers "unknown" for App with NuGet's own message and still judges Lib. The project file is then
// fixed on disk and restored again: the engine notices by itself (no update was sent), loads again,
// and judges App.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EngineCodeChecker } from '../../src/core/csharp/engine/code-checker';
import { RoslynEngine } from '../../src/core/csharp/engine/roslyn-engine';
import { runBuild } from '../../src/core/dotnet/build';
import { projectsFailingToBuild, restoresSettled } from '../../src/core/dotnet/build-tracker';
import { createNodeHost } from '../../src/host/node';
import { ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';

const APP_PROJECT = (packages: string): string =>
  `<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n    <TargetFramework>net10.0</TargetFramework>\n    <ImplicitUsings>enable</ImplicitUsings>\n  </PropertyGroup>\n  <ItemGroup>\n    <ProjectReference Include="../Lib/Lib.csproj" />\n${packages}  </ItemGroup>\n</Project>\n`;

const FILES: Record<string, string> = {
  'Restore.slnx': '<Solution>\n  <Project Path="Lib/Lib.csproj" />\n  <Project Path="App/App.csproj" />\n</Solution>\n',
  'nuget.config':
    '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n    <add key="local" value="feed" />\n  </packageSources>\n</configuration>\n',
  'feed/.keep': '',
  'Lib/Lib.csproj':
    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n',
  'Lib/Numbers.cs': 'namespace Lib;\n\npublic static class Numbers\n{\n    public static int Two() => 2;\n}\n',
  'App/App.csproj': APP_PROJECT('    <PackageReference Include="Ironbees.No.Such.Package" Version="1.0.0" />\n'),
  'App/Program.cs': 'System.Console.WriteLine(Lib.Numbers.Two());\n',
};

const BROKEN_APP_FILE = {
  path: 'App/Extra.cs',
  text: 'namespace App;\n\npublic static class Extra\n{\n    public static int Four() => twice;\n}\n',
};
const BROKEN_LIB_FILE = {
  path: 'Lib/Extra.cs',
  text: 'namespace Lib;\n\npublic static class Extra\n{\n    public static int Four() => twice;\n}\n',
};
const CS0103 = (file: string): string => `${file}:5:33: CS0103: The name 'twice' does not exist in the current context`;

describe('Roslyn engine: follows restores (a failed restore, then a fixed one)', function () {
  this.timeout(600_000);
  const temps: string[] = [];
  let restoreEnv: () => void;

  before(() => {
    restoreEnv = useEngine();
  });

  after(() => {
    restoreEnv();
    removeAll(temps);
  });

  it('answers "unknown" with NuGet\'s message where the restore failed, judges the rest, and judges App once a restore succeeds', async () => {
    const enginePath = await ensureEngineBuilt();
    const root = mkdtempSync(path.join(tmpdir(), 'ironbees-roslyn-restore-'));
    temps.push(root);
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    const host = createNodeHost(root, { logger: quietLogger });
    const target = path.join(root, 'Restore.slnx');
    const engine = new RoslynEngine({
      workspaceRoot: root,
      target: async () => target,
      enginePath,
      logger: quietLogger,
      restoresSettled: () => restoresSettled(root),
    });
    const checker = new EngineCodeChecker(engine, { projectsFailingToBuild: () => projectsFailingToBuild(root) });
    const errorsOf = (result: {
      errors: Array<{ filePath: string; line: number; column: number; code: string; message: string }>;
    }): string[] => result.errors.map((e) => `${e.filePath}:${e.line}:${e.column}: ${e.code}: ${e.message}`);
    try {
      const failed = runBuild({ host, projects: [target], restore: true, timeoutMs: 240_000 });
      // Asked while the restore runs: the load waits for it.
      engine.warmUp();
      const build = await failed;
      assert.equal(build.success, false);
      assert.deepEqual([...new Set(build.errors.map((e) => e.code))], ['NU1101']);

      const app = await checker.check([BROKEN_APP_FILE]);
      assert.deepEqual(errorsOf(app), []);
      assert.equal(app.total, 0);
      assert.deepEqual(app.projects, []);
      assert.equal(app.unknown?.length, 1);
      assert.equal(app.unknown?.[0]?.project, 'App');
      assert.match(app.unknown?.[0]?.reason ?? '', /^its restore failed \(NU1101: Unable to find package Ironbees\.No\.Such\.Package/);

      const lib = await checker.check([BROKEN_LIB_FILE]);
      assert.deepEqual(errorsOf(lib), [CS0103('Lib/Extra.cs')]);
      assert.deepEqual(lib.projects, ['Lib']);
      assert.deepEqual(lib.unknown, [{ project: 'App', reason: app.unknown?.[0]?.reason }]);

      writeFileSync(path.join(root, 'App', 'App.csproj'), APP_PROJECT(''));
      // Changed on disk, not restored yet: still not judged, now for that reason.
      const stale = await checker.check([BROKEN_APP_FILE]);
      assert.deepEqual(stale.unknown, [{ project: 'App', reason: 'App.csproj changed after its last restore' }]);
      const fixed = await runBuild({ host, projects: [target], restore: true, timeoutMs: 240_000 });
      assert.equal(fixed.success, true, JSON.stringify(fixed.errors));
      const after = await checker.check([BROKEN_APP_FILE]);
      assert.deepEqual(errorsOf(after), [CS0103('App/Extra.cs')]);
      assert.deepEqual(after.unknown, []);
      assert.deepEqual(after.projects, ['App']);
    } finally {
      await engine.dispose();
    }
  });

  it('loads again by itself once the restores it overlapped settle, before any question', async () => {
    const enginePath = await ensureEngineBuilt();
    const root = mkdtempSync(path.join(tmpdir(), 'ironbees-roslyn-settle-'));
    temps.push(root);
    const files = { 'Lib/Lib.csproj': FILES['Lib/Lib.csproj'] as string, 'Lib/Numbers.cs': FILES['Lib/Numbers.cs'] as string };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    const host = createNodeHost(root, { logger: quietLogger });
    const target = path.join(root, 'Lib', 'Lib.csproj');
    // The load itself finds no restore running; the restore then runs (as the baseline's does) until released.
    let release = (): void => undefined;
    const restoring = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const engine = new RoslynEngine({
      workspaceRoot: root,
      target: async () => target,
      enginePath,
      logger: quietLogger,
      restoresSettled: () => (asked++ === 0 ? Promise.resolve() : restoring),
    });
    try {
      await engine.query('ping', {});
      assert.deepEqual(
        engine.loadInfo?.unknown?.map((u) => u.project),
        ['Lib'],
      );
      const restored = await runBuild({ host, projects: [target], restore: true, timeoutMs: 240_000 });
      assert.equal(restored.success, true, JSON.stringify(restored.errors));
      release();
      assert.equal(await engine.settled, true, 'the engine did not load again once the restore was over');
      const checker = new EngineCodeChecker(engine);
      const lib = await checker.check([BROKEN_LIB_FILE]);
      assert.deepEqual(
        lib.errors.map((e) => `${e.filePath}:${e.line}:${e.column}: ${e.code}: ${e.message}`),
        [CS0103('Lib/Extra.cs')],
      );
      assert.deepEqual(lib.unknown, []);
    } finally {
      await engine.dispose();
    }
  });
});
