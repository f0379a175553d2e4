// Symbol answers on the coder's staged text (the overlay), on the real engine: a member and a file
// that exist only as staged edits are found, referenced and outlined, and positions in the staged
// text are the ones answered; with nothing staged the disk's text answers, and nothing is written.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { stopSharedEngines } from '../../src/core/csharp/engine/roslyn-engine';
import type { Host } from '../../src/core/host';
import { findReferencesTool, findSymbolsTool } from '../../src/core/tools/symbol-tools';
import type { ToolContext, ToolDefinition } from '../../src/core/tools/types';
import { StagedOverlay } from '../../src/core/workspace/overlay';
import { createNodeHost } from '../../src/host/node/index';
import { copyFixtureTo, ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';

const temps: string[] = [];

async function call<I>(tool: ToolDefinition<I>, raw: unknown, context: ToolContext): Promise<string> {
  const outcome = await tool.execute(tool.input.parse(raw), context);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  return outcome.content;
}

const STOCK_ITEM = 'src/Inventory/StockItem.cs';
const RESERVATION = 'src/Shipping/Reservation.cs';

describe('Roslyn engine: symbol answers on the staged text', function () {
  this.timeout(300_000);
  let root: string;
  let host: Host;
  let engineOff: () => void;

  before(async () => {
    engineOff = useEngine();
    await ensureEngineBuilt();
    root = copyFixtureTo(temps, 'warehouse');
    host = createNodeHost(root, { logger: quietLogger });
  });

  after(async () => {
    await stopSharedEngines();
    removeAll(temps);
    engineOff();
  });

  async function stagedOverlay(): Promise<StagedOverlay> {
    const overlay = new StagedOverlay(host);
    // Two lines pushed in above Quantity: its staged place is line 10, on disk it is line 8.
    const original = readFileSync(path.join(root, STOCK_ITEM), 'utf8');
    await overlay.write(
      STOCK_ITEM,
      original.replace('    public int Quantity', '    public int Reserve(int count) => Quantity - count;\n\n    public int Quantity'),
    );
    await overlay.write(
      RESERVATION,
      'using Inventory;\n\nnamespace Shipping;\n\npublic static class Reservation\n{\n    public static int Hold(StockItem item) => item.Reserve(2) + item.Quantity;\n}\n',
    );
    return overlay;
  }

  it('find_symbols, find_references and the outline see a staged member and a staged file; the disk does not', async () => {
    const overlay = await stagedOverlay();
    const ctx = { host, overlay };
    assert.equal(
      await call(findSymbolsTool, { query: 'Reserve', kind: 'method' }, ctx),
      '1 method symbol(s) matching "Reserve":\nmethod Reserve — src/Inventory/StockItem.cs:8:16 (in Inventory.StockItem)',
    );
    assert.equal(
      await call(findReferencesTool, { at: `${STOCK_ITEM}:8:16` }, ctx),
      [
        '2 reference(s) to StockItem.Reserve (the symbol at src/Inventory/StockItem.cs:8:16):',
        'src/Inventory/StockItem.cs:8:16: public int Reserve(int count) => Quantity - count;',
        'src/Shipping/Reservation.cs:7:52: public static int Hold(StockItem item) => item.Reserve(2) + item.Quantity;',
      ].join('\n'),
    );
    // Quantity moved two lines down in the staged text; its references include the staged file's use.
    assert.equal(
      await call(findReferencesTool, { at: `${STOCK_ITEM}:10:16` }, ctx),
      [
        '6 reference(s) to StockItem.Quantity (the symbol at src/Inventory/StockItem.cs:10:16):',
        'src/Inventory/StockItem.cs:8:38: public int Reserve(int count) => Quantity - count;',
        'src/Inventory/StockItem.cs:10:16: public int Quantity { get; set; } = quantity;',
        'src/Inventory/StockItem.cs:14:31: public decimal Total() => Quantity * UnitPrice;',
        'src/Shipping/Loader.cs:11:32: pallet.Quantity = item.Quantity;',
        'src/Shipping/Loader.cs:16:57: public static decimal Value(StockItem item) => item.Quantity;',
        'src/Shipping/Reservation.cs:7:70: public static int Hold(StockItem item) => item.Reserve(2) + item.Quantity;',
      ].join('\n'),
    );
    assert.equal(
      await call(findSymbolsTool, { file: RESERVATION }, ctx),
      'Outline of src/Shipping/Reservation.cs (2 declaration(s)):\n' +
        'class Reservation — src/Shipping/Reservation.cs:5:21 (in Shipping)\n' +
        'method Hold — src/Shipping/Reservation.cs:7:23 (in Shipping.Reservation)',
    );
    assert.equal(existsSync(path.join(root, RESERVATION)), false, 'the staged file is not written');

    // Without staged edits (another run, or after a revert) the disk's text answers again.
    const clean = { host, overlay: new StagedOverlay(host) };
    assert.equal(
      await call(findSymbolsTool, { query: 'Reserve', kind: 'method' }, clean),
      'No method symbols matching "Reserve". Try a shorter part of the name, another kind, or search_text.',
    );
    assert.equal(
      (await call(findReferencesTool, { at: `${STOCK_ITEM}:8:16` }, clean)).split('\n')[0],
      '4 reference(s) to StockItem.Quantity (the symbol at src/Inventory/StockItem.cs:8:16):',
    );
  });
});
