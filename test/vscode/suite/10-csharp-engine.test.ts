// VS Code without a C# extension: symbols and the in-memory check come from Ironbees' C# engine
// (Roslyn), as in the CLI, not from the text index. The runner turns the engine off for the other
// suites (IRONBEES_ROSLYN=0, loads are slow here); this one turns it on for itself. Positions are
// read from the workspace's files, which earlier suites' runs may have changed.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../../src/core/host';
import { EngineSymbolProvider } from '../../../src/core/csharp/engine/engine-symbols';
import { stopSharedEngines } from '../../../src/core/csharp/engine/roslyn-engine';
import { createVscodeHost, FallbackNotice } from '../../../src/host/vscode/index';
import { SOURCE, workspaceRoot } from './helpers';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const TESTS_SOURCE = 'tests/Calculator.Tests/CalcTests.cs';

/** 1-based line and column of `name` inside the first line of `rel` that contains `marker`. */
function positionOf(rel: string, marker: string, name: string): { line: number; column: number } {
  const lines = readFileSync(path.join(workspaceRoot(), rel), 'utf8').split(/\r?\n/);
  const line = lines.findIndex((l) => l.includes(marker));
  assert.ok(line >= 0, `${marker} is in ${rel}`);
  return { line: line + 1, column: lines[line].indexOf(marker) + marker.indexOf(name) + 1 };
}

describe('VS Code without a C# extension uses the C# engine', function () {
  this.timeout(600_000);
  let engineSetting: string | undefined;

  before(() => {
    engineSetting = process.env.IRONBEES_ROSLYN;
    process.env.IRONBEES_ROSLYN = '1';
  });

  after(async () => {
    await stopSharedEngines();
    if (engineSetting === undefined) delete process.env.IRONBEES_ROSLYN;
    else process.env.IRONBEES_ROSLYN = engineSetting;
  });

  it('go to definition across projects and check_code come from the compiler, with no fallback notice', async () => {
    const host = createVscodeHost(workspaceRoot(), {
      logger: quiet,
      languageServer: false,
      fallbackNotice: new FallbackNotice(() => undefined),
    });
    assert.ok(host.symbols instanceof EngineSymbolProvider, 'the engine is the symbol provider');
    const use = positionOf(TESTS_SOURCE, 'Calc.Divide(', 'Divide');
    const declared = positionOf(SOURCE, 'public static int Divide(', 'Divide');
    const definitions = await host.symbols.findDefinitions({ filePath: TESTS_SOURCE, ...use });
    assert.deepEqual(
      definitions.map((d) => `${d.containerName}.${d.name}@${d.filePath}:${d.line}:${d.column}`),
      [`Calculator.Calc.Divide@${SOURCE}:${declared.line}:${declared.column}`],
    );
    assert.equal(host.symbols.takeNotice(), undefined, 'the engine answered, not the text index');

    assert.ok(host.codeCheck, 'the pre-review check is offered without a language server');
    const source = readFileSync(path.join(workspaceRoot(), SOURCE), 'utf8');
    const add = positionOf(SOURCE, 'public static int Add(int a, int b) => a + b;', 'b;');
    const result = await host.codeCheck.check([
      {
        path: SOURCE,
        text: source.replace('public static int Add(int a, int b) => a + b;', 'public static int Add(int a, int b) => a + c;'),
      },
    ]);
    assert.deepEqual(
      result.errors.map((e) => `${e.filePath}:${e.line}:${e.column}: ${e.code}`),
      [`${SOURCE}:${add.line}:${add.column}: CS0103`],
    );
    assert.equal(readFileSync(path.join(workspaceRoot(), SOURCE), 'utf8'), source, 'nothing is written');
  });
});
