import * as assert from 'node:assert/strict';
import type { SymbolInfo, SymbolLocation, SymbolProvider } from '../../../src/core/host';
import { findReferencesTool, findSymbolsTool } from '../../../src/core/tools/csharp/symbol-tools';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { bare, memoryHost, toolContext } from './memory-host';

const registry = new ToolRegistry().register(findSymbolsTool).register(findReferencesTool);

describe('find_symbols and find_references', () => {
  it('go through host.symbols and render file:line:column with the container', async () => {
    const host = memoryHost({
      'src/Calculator.cs': 'namespace Calc;\npublic class Calculator\n{\n    public int Add(int a, int b) => a + b;\n}\n',
      'tests/CalcTests.cs': 'public class CalcTests { void T() { new Calculator().Add(1, 2); } }\n',
    });
    const ctx = toolContext(host);
    const symbols = await registry.execute(findSymbolsTool, { query: 'Add' }, ctx);
    assert.deepEqual(bare(symbols), { ok: true, content: '1 symbol(s) matching "Add":\nmethod Add — src/Calculator.cs:4:16 (in Calc.Calculator)' });
    const refs = await registry.execute(findReferencesTool, { symbol: 'Add' }, ctx);
    assert.deepEqual(bare(refs), {
      ok: true,
      content: '2 reference(s) to "Add":\nsrc/Calculator.cs:4:16: public int Add(int a, int b) => a + b;\ntests/CalcTests.cs:1:54: public class CalcTests { void T() { new Calculator().Add(1, 2); } }',
    });
  });

  it('pass kind (case-insensitively), limit and the signal to the provider, and say when results were cut', async () => {
    const calls: unknown[] = [];
    const many: SymbolInfo[] = Array.from({ length: 10 }, (_, i) => ({ name: `C${i}`, kind: 'class', filePath: 'a.cs', line: i + 1, column: 1 }));
    const provider: SymbolProvider = {
      findSymbols: async (query, options) => {
        calls.push({ query, kind: options?.kind, limit: options?.limit, hasSignal: options?.signal instanceof AbortSignal });
        return many.slice(0, options?.limit);
      },
      findReferences: async (): Promise<SymbolLocation[]> => [],
    };
    const ctx = toolContext(memoryHost({}, { symbols: provider }));
    const outcome = await registry.execute(findSymbolsTool, { query: 'C', kind: 'Class', limit: '3' }, ctx);
    assert.deepEqual(calls, [{ query: 'C', kind: 'class', limit: 4, hasSignal: true }]);
    assert.ok(outcome.ok);
    assert.equal(outcome.content.split('\n').length, 5);
    assert.match(outcome.content, /^3 class symbol\(s\) matching "C":\nclass C0 — a\.cs:1:1\n/);
    assert.match(outcome.content, /More matches not shown/);
  });

  it('explain empty results and bad arguments', async () => {
    const ctx = toolContext(memoryHost({ 'a.cs': 'class A {}' }));
    assert.deepEqual(bare(await registry.execute(findSymbolsTool, { query: 'Zzz' }, ctx)), {
      ok: true,
      content: 'No symbols matching "Zzz". Try a shorter part of the name, another kind, or search_text.',
    });
    const badKind = await registry.execute(findSymbolsTool, { query: 'A', kind: 'module' }, ctx);
    assert.ok(!badKind.ok && /kind: Invalid option: expected one of "class"\|"interface"/.test(badKind.error));
    const empty = await registry.execute(findSymbolsTool, { query: ' ' }, ctx);
    assert.ok(!empty.ok && /query is empty/.test(empty.error));
    const noSymbol = await registry.execute(findReferencesTool, {}, ctx);
    assert.ok(!noSymbol.ok && /symbol: symbol is required/.test(noSymbol.error));
    const none = await registry.execute(findReferencesTool, { symbol: 'Nope' }, ctx);
    assert.ok(none.ok && /No references to "Nope"/.test(none.content));
  });

  it('list every symbol of a kind when the query is empty', async () => {
    const ctx = toolContext(memoryHost({ 'a.cs': 'class A {} interface IB {} class C {}' }));
    const outcome = await registry.execute(findSymbolsTool, { query: '', kind: 'class' }, ctx);
    assert.ok(outcome.ok);
    assert.match(outcome.content, /class A — a\.cs:1:7\nclass C — a\.cs:1:34$/);
  });
});
