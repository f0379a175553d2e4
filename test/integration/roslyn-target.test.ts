// The C# engine opens the run's --target, not whichever solution it would find: a workspace with
// two solutions at its root (the whole warehouse, and Inventory alone). Each target's engine answers
// from its own projects, so the answers differ exactly where the second solution leaves Shipping out.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRuntime } from '../../src/cli/wiring';
import { sharedEngine, stopSharedEngines } from '../../src/core/csharp/engine/roslyn-engine';
import type { SymbolLocation } from '../../src/core/host';
import { copyFixtureTo, ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';

const temps: string[] = [];
const QUANTITY = { filePath: 'src/Inventory/StockItem.cs', line: 8, column: 16 };
const where = (places: SymbolLocation[]): string[] => places.map((p) => `${p.filePath}:${p.line}:${p.column}`);

describe("Roslyn engine: opens the run's target", function () {
  this.timeout(300_000);
  let root: string;
  let engineOff: () => void;

  before(async () => {
    engineOff = useEngine();
    await ensureEngineBuilt();
    root = copyFixtureTo(temps, 'warehouse');
    writeFileSync(path.join(root, 'Inventory.slnx'), '<Solution>\n  <Project Path="src/Inventory/Inventory.csproj" />\n</Solution>\n');
  });

  after(async () => {
    await stopSharedEngines();
    removeAll(temps);
    engineOff();
  });

  it('--target Inventory.slnx: the engine loads that solution (no Shipping uses); a resumed run keeps it; Warehouse.slnx sees Shipping', async () => {
    const second = await createRuntime({
      workspaceRoot: root,
      trusted: false,
      demo: true,
      env: {},
      logger: quietLogger,
      target: 'Inventory.slnx',
    });
    assert.equal(second.target, 'Inventory.slnx');
    // The runtime started loading it already, before any question (the load overlaps planning).
    const engine = sharedEngine({
      workspaceRoot: root,
      targetKey: 'Inventory.slnx',
      target: () => Promise.reject(new Error('not this one')),
    });
    assert.equal(engine.started, true, 'loading began when the runtime was made');
    assert.equal(
      sharedEngine({ workspaceRoot: root, targetKey: 'Nothing.slnx', target: () => Promise.reject(new Error('unused')) }).started,
      false,
      'a new engine starts nothing by itself',
    );
    assert.deepEqual(where(await second.host.symbols.findReferencesAt!(QUANTITY)), [
      'src/Inventory/StockItem.cs:8:16',
      'src/Inventory/StockItem.cs:12:31',
    ]);
    assert.equal(second.host.symbols.takeNotice?.(), undefined, 'the engine answered, not the text index');

    // resume passes the target its run started with.
    const resumed = await createRuntime({
      workspaceRoot: root,
      trusted: false,
      demo: true,
      env: {},
      logger: quietLogger,
      engineTarget: 'Inventory.slnx',
    });
    assert.deepEqual(where(await resumed.host.symbols.findReferencesAt!(QUANTITY)), [
      'src/Inventory/StockItem.cs:8:16',
      'src/Inventory/StockItem.cs:12:31',
    ]);

    const first = await createRuntime({
      workspaceRoot: root,
      trusted: false,
      demo: true,
      env: {},
      logger: quietLogger,
      target: 'Warehouse.slnx',
    });
    assert.deepEqual(where(await first.host.symbols.findReferencesAt!(QUANTITY)), [
      'src/Inventory/StockItem.cs:8:16',
      'src/Inventory/StockItem.cs:12:31',
      'src/Shipping/Loader.cs:11:32',
      'src/Shipping/Loader.cs:16:57',
    ]);
    for (const runtime of [second, resumed, first]) await runtime.dispose?.();
  });
});
