// The warm start: a second engine on the same, unchanged workspace builds the solution from the
// cache the first one wrote (no MSBuild) and answers exactly as the first did, source generators
// and both target frameworks included; a changed restore input or a new C# file loads cold again.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EngineCodeChecker } from '../../src/core/csharp/engine/code-checker';
import { RoslynEngine } from '../../src/core/csharp/engine/roslyn-engine';
import { runBuild } from '../../src/core/dotnet/build';
import { projectsFailingToBuild } from '../../src/core/dotnet/build-tracker';
import type { CodeCheckResult } from '../../src/core/host';
import { createNodeHost } from '../../src/host/node';
import { copyFixtureTo, ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';

const GENERATED = {
  path: 'src/Units/Patterns.cs',
  text: 'using System.Text.RegularExpressions;\n\nnamespace Units;\n\npublic static partial class Patterns\n{\n    [GeneratedRegex("[0-9]+")]\n    private static partial Regex Digits();\n\n    public static bool HasDigits(string text) => Digits().IsMatch(text);\n}\n',
};
const BROKEN = {
  path: 'tests/Units.Tests/BrokenTests.cs',
  text: 'namespace Units.Tests;\n\npublic class BrokenTests\n{\n    [Fact]\n    public void Celsius() => Assert.Equal(0, Temperature.ToKelvin(0));\n}\n',
};

describe('Roslyn engine: warm start from the cache of an earlier load', function () {
  this.timeout(900_000);
  const temps: string[] = [];
  let restoreEnv: () => void;
  let cacheBefore: string | undefined;

  before(() => {
    restoreEnv = useEngine();
    cacheBefore = process.env.IRONBEES_ROSLYN_CACHE;
    process.env.IRONBEES_ROSLYN_CACHE = mkdtempSync(path.join(tmpdir(), 'ironbees-roslyn-cache-'));
    temps.push(process.env.IRONBEES_ROSLYN_CACHE);
  });

  after(() => {
    restoreEnv();
    if (cacheBefore === undefined) delete process.env.IRONBEES_ROSLYN_CACHE;
    else process.env.IRONBEES_ROSLYN_CACHE = cacheBefore;
    removeAll(temps);
  });

  it('loads from the cache when nothing changed, answers the same, and loads cold after a change', async () => {
    const enginePath = await ensureEngineBuilt();
    const root = copyFixtureTo(temps, 'xunit-multi');
    const target = path.join(root, 'Units.slnx');
    const host = createNodeHost(root, { logger: quietLogger });
    const baseline = await runBuild({ host, projects: [target], restore: true, timeoutMs: 600_000 });
    assert.equal(baseline.success, true);
    const session = async (): Promise<{ fromCache: unknown; generated: CodeCheckResult; broken: CodeCheckResult }> => {
      const engine = new RoslynEngine({ workspaceRoot: root, target: async () => target, enginePath, logger: quietLogger });
      try {
        const checker = new EngineCodeChecker(engine, { projectsFailingToBuild: () => projectsFailingToBuild(root) });
        const generated = await checker.check([GENERATED]);
        const broken = await checker.check([BROKEN]);
        return { fromCache: engine.loadInfo?.fromCache, generated, broken };
      } finally {
        await engine.dispose();
      }
    };
    const cold = await session();
    assert.equal(cold.fromCache, false);
    assert.deepEqual(cold.generated, {
      projects: ['Units(net10.0)', 'Units(net8.0)', 'Units.Tests(net10.0)', 'Units.Tests(net8.0)'],
      errors: [],
      total: 0,
      unknown: [],
    });
    assert.deepEqual(
      cold.broken.errors.map((e) => `${e.filePath}:${e.line}:${e.column}: ${e.code}`),
      ['tests/Units.Tests/BrokenTests.cs:6:58: CS0117'],
    );
    const warm = await session();
    assert.equal(warm.fromCache, true);
    assert.deepEqual(warm.generated, cold.generated);
    assert.deepEqual(warm.broken, cold.broken);

    writeFileSync(path.join(root, 'src', 'Units', 'Extra.cs'), 'namespace Units;\n\npublic static class Extra { }\n');
    const afterNewFile = await session();
    assert.equal(afterNewFile.fromCache, false, 'a new C# file changes the globbed documents');
  });
});
