// The Roslyn engine answering the model-facing symbol tools and check_code on real fixtures
// (one engine load per fixture, shared by the tests of that fixture). The warehouse fixture has
// StockItem.Quantity beside Pallet.Quantity, a comment and a string that say "Quantity": only the
// compiler tells them apart.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkCodeTool } from '../../src/core/tools/check-code-tool';
import { stopSharedEngines } from '../../src/core/csharp/engine/roslyn-engine';
import type { Host } from '../../src/core/host';
import { CSharpTextIndex } from '../../src/core/csharp/text-index';
import { findReferencesTool, findSymbolsTool } from '../../src/core/tools/symbol-tools';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../src/core/tools/types';
import { StagedOverlay } from '../../src/core/workspace/overlay';
import { runBuild } from '../../src/core/dotnet/build';
import { NodeFileSystem, createNodeHost } from '../../src/host/node/index';
import { copyFixtureTo, ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';

const temps: string[] = [];

/** Runs a tool as the registry does: the model's raw arguments through its input schema first. */
async function call<I>(tool: ToolDefinition<I>, raw: unknown, context: ToolContext): Promise<ToolOutcome> {
  return tool.execute(tool.input.parse(raw), context);
}

function content(outcome: ToolOutcome): string {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  return outcome.content;
}

describe('Roslyn engine: symbol tools and check_code on real solutions', function () {
  this.timeout(300_000);
  let root: string;
  let host: Host;
  const ctx = () => ({ host, overlay: new StagedOverlay(host) });
  let engineOff: () => void;

  before(async () => {
    engineOff = useEngine();
    await ensureEngineBuilt();
    root = copyFixtureTo(temps, 'warehouse');
    host = createNodeHost(root, { logger: quietLogger });
    // As a run does: the baseline restores and builds first (check_code judges no project before its restore).
    const baseline = await runBuild({ host, projects: [path.join(root, 'Warehouse.slnx')], restore: true, timeoutMs: 240_000 });
    assert.equal(baseline.success, true);
  });

  after(async () => {
    await stopSharedEngines();
    removeAll(temps);
    engineOff();
  });

  it('find_references at StockItem.Quantity lists exactly its uses: not Pallet.Quantity, the comment or the string', async () => {
    const text = content(await call(findReferencesTool, { at: 'src/Inventory/StockItem.cs:8:16' }, ctx()));
    assert.equal(
      text,
      [
        '4 reference(s) to StockItem.Quantity (the symbol at src/Inventory/StockItem.cs:8:16):',
        'src/Inventory/StockItem.cs:8:16: public int Quantity { get; set; } = quantity;',
        'src/Inventory/StockItem.cs:12:31: public decimal Total() => Quantity * UnitPrice;',
        'src/Shipping/Loader.cs:11:32: pallet.Quantity = item.Quantity;',
        'src/Shipping/Loader.cs:16:57: public static decimal Value(StockItem item) => item.Quantity;',
      ].join('\n'),
    );
    // The text index, asked the same, mixes in the other Quantity (the contrast the engine removes).
    const index = new CSharpTextIndex(new NodeFileSystem(), root);
    const byText = await index.findReferences('Quantity');
    assert.ok(
      byText.some((p) => p.filePath === 'src/Shipping/Pallet.cs'),
      'the text index cannot tell the two apart',
    );
  });

  it('find_references by "Pallet.Quantity" names only the pallet\'s property', async () => {
    const text = content(await call(findReferencesTool, { symbol: 'Pallet.Quantity' }, ctx()));
    assert.equal(
      text,
      [
        '4 reference(s) to "Pallet.Quantity":',
        'src/Shipping/Loader.cs:11:16: pallet.Quantity = item.Quantity;',
        'src/Shipping/Pallet.cs:8:16: public int Quantity { get; set; }',
        'src/Shipping/Pallet.cs:12:45: public string Label() => "Quantity: " + Quantity;',
        'tests/Shipping.Tests/LoaderTests.cs:9:118: public void Load_PutsTheItemsQuantityOnThePallet() => Assert.Equal(3, Loader.Load(new StockItem("A-1", 3, 2.5m)).Quantity);',
      ].join('\n'),
    );
  });

  it('go to definition crosses projects: item.Quantity in Shipping is declared in Inventory', async () => {
    const text = content(await call(findSymbolsTool, { at: 'src/Shipping/Loader.cs:11:32' }, ctx()));
    assert.equal(
      text,
      'The symbol at src/Shipping/Loader.cs:11:32 (Quantity) is declared at:\n' +
        'property Quantity — src/Inventory/StockItem.cs:8:16 (in Inventory.StockItem)\n    public int Quantity { get; set; } = quantity;',
    );
  });

  it('type hierarchy: Pallet derives from Container across projects; IPriced is implemented by StockItem', async () => {
    assert.equal(
      content(await call(findSymbolsTool, { query: 'Container', hierarchy: 'both' }, ctx())),
      'class Container — src/Inventory/Container.cs:3:23 (in Inventory)\n' +
        '  base types (base class and interfaces): none declared\n' +
        '  derived types (subclasses and implementations):\n    class Pallet — src/Shipping/Pallet.cs:5:14 (in Shipping)',
    );
    assert.equal(
      content(await call(findSymbolsTool, { query: 'StockItem', hierarchy: 'base' }, ctx())),
      'class StockItem — src/Inventory/StockItem.cs:4:14 (in Inventory)\n' +
        '  base types (base class and interfaces):\n    interface IPriced — src/Inventory/IPriced.cs:3:18 (in Inventory)',
    );
  });

  it('implementations of IPriced.Total and the outline of Pallet.cs', async () => {
    assert.equal(
      content(await call(findSymbolsTool, { at: 'src/Inventory/IPriced.cs:5:13', implementations: true }, ctx())),
      '1 implementation(s) of the symbol at src/Inventory/IPriced.cs:5:13:\n' +
        'method Total — src/Inventory/StockItem.cs:12:20 (in Inventory.StockItem)\n    public decimal Total() => Quantity * UnitPrice;',
    );
    assert.equal(
      content(await call(findSymbolsTool, { file: 'src/Shipping/Pallet.cs' }, ctx())),
      'Outline of src/Shipping/Pallet.cs (4 declaration(s)):\n' +
        'class Pallet — src/Shipping/Pallet.cs:5:14 (in Shipping)\n' +
        'property Quantity — src/Shipping/Pallet.cs:8:16 (in Shipping.Pallet)\n' +
        'property Capacity — src/Shipping/Pallet.cs:10:25 (in Shipping.Pallet)\n' +
        'method Label — src/Shipping/Pallet.cs:12:19 (in Shipping.Pallet)',
    );
  });

  it('check_code finds CS1061 and CS0103 in the staged overlay, nothing after the fix, and writes nothing', async () => {
    const overlay = new StagedOverlay(host);
    const loader = 'src/Shipping/Loader.cs';
    const original = readFileSync(path.join(root, loader), 'utf8');
    await overlay.write(loader, original.replace('=> item.Quantity;', '=> item.Quantity * item.Price + discount;'));
    assert.equal(
      content(await call(checkCodeTool, {}, { host, overlay })),
      '2 new compile error(s) in Shipping, Shipping.Tests with your staged edits:\n' +
        "src/Shipping/Loader.cs:16:73: error CS1061: 'StockItem' does not contain a definition for 'Price' and no accessible extension method 'Price' accepting a first argument of type 'StockItem' could be found (are you missing a using directive or an assembly reference?)\n" +
        "src/Shipping/Loader.cs:16:81: error CS0103: The name 'discount' does not exist in the current context",
    );
    assert.equal(readFileSync(path.join(root, loader), 'utf8'), original, 'nothing reaches the disk');
    await overlay.write(loader, original.replace('=> item.Quantity;', '=> item.Quantity * item.UnitPrice;'));
    assert.equal(
      content(await call(checkCodeTool, {}, { host, overlay })),
      'No new compile errors (compiled Shipping, Shipping.Tests with your staged edits).',
    );
  });

  it('follows the disk: after a file changes and is invalidated, answers see the new text', async () => {
    const pallet = path.join(root, 'src', 'Shipping', 'Pallet.cs');
    const before = readFileSync(pallet, 'utf8');
    await host.fs.writeFile(pallet, before.replace('public string Label()', 'public string Tag()'));
    host.symbols.invalidate?.(['src/Shipping/Pallet.cs']);
    assert.equal(
      content(await call(findSymbolsTool, { query: 'Tag', kind: 'method' }, ctx())),
      '1 method symbol(s) matching "Tag":\nmethod Tag — src/Shipping/Pallet.cs:12:19 (in Shipping.Pallet)',
    );
    await host.fs.writeFile(pallet, before);
    host.symbols.invalidate?.(['src/Shipping/Pallet.cs']);
  });
});

describe('Roslyn engine: check_code against a baseline that already has errors (broken fixture)', function () {
  this.timeout(300_000);
  let engineOff: () => void;

  before(() => {
    engineOff = useEngine();
  });

  after(async () => {
    await stopSharedEngines();
    removeAll(temps);
    engineOff();
  });

  it('reports only the errors the edit adds, not the CS0103/CS1061 already on disk', async () => {
    await ensureEngineBuilt();
    const root = copyFixtureTo(temps, 'broken');
    const host = createNodeHost(root, { logger: quietLogger });
    // The baseline: restored, and its build fails in Broken, so the engine takes the errors on disk as real.
    const baseline = await runBuild({ host, projects: [path.join(root, 'Broken.csproj')], restore: true, timeoutMs: 240_000 });
    assert.deepEqual([...new Set(baseline.errors.map((e) => e.project))], ['Broken.csproj']);
    const overlay = new StagedOverlay(host);
    const source = readFileSync(path.join(root, 'Greeter.cs'), 'utf8');
    await overlay.write('Greeter.cs', source.replace('int unused;', 'int unused = missing;'));
    assert.equal(
      content(await call(checkCodeTool, {}, { host, overlay })),
      "1 new compile error(s) in Broken with your staged edits:\nGreeter.cs:7:22: error CS0103: The name 'missing' does not exist in the current context",
    );
    await overlay.write('Greeter.cs', source.replace('{nmae}', '{name}').replace('text.Lenght', 'text.Length'));
    assert.equal(
      content(await call(checkCodeTool, {}, { host, overlay })),
      'No new compile errors (compiled Broken with your staged edits).',
    );
  });
});
