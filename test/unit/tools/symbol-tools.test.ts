import * as assert from 'node:assert/strict';
import type { SymbolInfo, SymbolLocation, SymbolProvider } from '../../../src/core/host';
import { findReferencesTool, findSymbolsTool } from '../../../src/core/tools/symbol-tools';
import { inputJsonSchema, ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext } from '../../../src/core/tools/types';
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
    assert.deepEqual(bare(symbols), {
      ok: true,
      content: '1 symbol(s) matching "Add":\nmethod Add — src/Calculator.cs:4:16 (in Calc.Calculator)',
    });
    const refs = await registry.execute(findReferencesTool, { symbol: 'Add' }, ctx);
    assert.deepEqual(bare(refs), {
      ok: true,
      content:
        '2 reference(s) to "Add":\nsrc/Calculator.cs:4:16: public int Add(int a, int b) => a + b;\ntests/CalcTests.cs:1:54: public class CalcTests { void T() { new Calculator().Add(1, 2); } }',
    });
  });

  it('pass kind (case-insensitively), limit and the signal to the provider, and say when results were cut', async () => {
    const calls: unknown[] = [];
    const many: SymbolInfo[] = Array.from({ length: 10 }, (_, i) => ({
      name: `C${i}`,
      kind: 'class',
      filePath: 'a.cs',
      line: i + 1,
      column: 1,
    }));
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
    assert.ok(!noSymbol.ok && /symbol: symbol is required/.test(noSymbol.error), noSymbol.ok ? '' : noSymbol.error);
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

const SHAPES = {
  'src/Geo/Shapes.cs': [
    'namespace Geo;',
    'public interface IShape { double Area(); }',
    'public abstract class Shape : IShape, IComparable<Shape>',
    '{',
    '    public abstract double Area();',
    '}',
    'public sealed class Circle : Shape { public override double Area() => 3.14; }',
  ].join('\n'),
  'src/App/Program.cs': 'using Geo;\nvar shape = new Circle();\nConsole.WriteLine(shape.Area()); // Area in a comment\n',
};

describe('find_symbols and find_references at a position, and the type hierarchy (text index)', () => {
  const ctx = (): ToolContext => toolContext(memoryHost(SHAPES));

  it('go to the declaration of the symbol at path:line:column, or at path:line with its name', async () => {
    const c = ctx();
    const exact = await registry.execute(findSymbolsTool, { at: 'src/App/Program.cs:2:17' }, c);
    assert.deepEqual(bare(exact), {
      ok: true,
      content:
        'The symbol at src/App/Program.cs:2:17 (Circle) is declared at:\nclass Circle — src/Geo/Shapes.cs:7:21 (in Geo)\n    public sealed class Circle : Shape { public override double Area() => 3.14; }',
    });
    const byName = await registry.execute(findSymbolsTool, { at: 'src/App/Program.cs:3', query: 'Area' }, c);
    assert.ok(byName.ok);
    assert.match(byName.content, /^The symbol at src\/App\/Program\.cs:3:25 \(Area\) is declared at:\n/);
    assert.deepEqual(
      byName.content
        .split('\n')
        .filter((l) => !l.startsWith('    '))
        .slice(1),
      [
        'method Area — src/Geo/Shapes.cs:2:34 (in Geo.IShape)',
        'method Area — src/Geo/Shapes.cs:5:28 (in Geo.Shape)',
        'method Area — src/Geo/Shapes.cs:7:61 (in Geo.Circle)',
      ],
    );
    const compilerStyle = await registry.execute(findSymbolsTool, { at: 'src/App/Program.cs(2,17)' }, c);
    assert.ok(compilerStyle.ok && compilerStyle.content.includes('class Circle'), 'path(line,column) as compilers print it');
  });

  it('find the references of the symbol declared at a position', async () => {
    const refs = await registry.execute(findReferencesTool, { at: 'src/Geo/Shapes.cs:7:21' }, ctx());
    assert.deepEqual(bare(refs), {
      ok: true,
      content:
        '2 reference(s) to Geo.Circle (the symbol at src/Geo/Shapes.cs:7:21):\n' +
        'src/App/Program.cs:2:17: var shape = new Circle();\n' +
        'src/Geo/Shapes.cs:7:21: public sealed class Circle : Shape { public override double Area() => 3.14; }',
    });
  });

  it('list base and derived types by name or at a position', async () => {
    const c = ctx();
    const both = await registry.execute(findSymbolsTool, { query: 'Shape', hierarchy: 'both' }, c);
    assert.deepEqual(bare(both), {
      ok: true,
      content: [
        'class Shape — src/Geo/Shapes.cs:3:23 (in Geo)',
        '  base types (base class and interfaces):',
        '    interface IShape — src/Geo/Shapes.cs:2:18 (in Geo)',
        '    IComparable<Shape> (outside the workspace)',
        '  derived types (subclasses and implementations):',
        '    class Circle — src/Geo/Shapes.cs:7:21 (in Geo)',
      ].join('\n'),
    });
    const derived = await registry.execute(findSymbolsTool, { query: 'IShape', hierarchy: 'Derived' }, c);
    assert.ok(
      derived.ok && !derived.content.includes('base types') && derived.content.includes('class Shape —'),
      derived.ok ? derived.content : derived.error,
    );
    const fromUse = await registry.execute(findSymbolsTool, { at: 'src/App/Program.cs:2', query: 'Circle', hierarchy: true }, c);
    assert.ok(fromUse.ok);
    assert.match(
      fromUse.content,
      /^class Circle — src\/Geo\/Shapes\.cs:7:21 \(in Geo\)\n {2}base types \(base class and interfaces\):\n {4}class Shape — /,
    );
    assert.match(fromUse.content, /derived types \(subclasses and implementations\): none in the workspace$/);
  });

  it('explain what to fix in at, hierarchy and missing names', async () => {
    const c = ctx();
    const error = async (tool: typeof findSymbolsTool | typeof findReferencesTool, input: Record<string, unknown>): Promise<string> => {
      const outcome = await registry.execute(tool, input, c);
      assert.ok(!outcome.ok, `expected an error for ${JSON.stringify(input)}`);
      return outcome.error;
    };
    assert.match(await error(findSymbolsTool, { at: 'Program.cs line 3' }), /is not a position; write "path:line:column"/);
    assert.match(await error(findSymbolsTool, { at: 'src/App/Programm.cs:1:1' }), /src\/App\/Programm\.cs does not exist/);
    assert.match(await error(findSymbolsTool, { at: 'src/App/Program.cs:9:1' }), /has 3 line\(s\); line 9 is not one of them/);
    assert.match(
      await error(findSymbolsTool, { at: 'src/App/Program.cs:2' }),
      /has no column; add it \("src\/App\/Program\.cs:2:COLUMN"\)/,
    );
    assert.match(
      await error(findReferencesTool, { at: 'src/App/Program.cs:3', symbol: 'Area2' }),
      /"Area2" is not on line 3 of src\/App\/Program\.cs/,
    );
    assert.match(await error(findSymbolsTool, { at: '../outside.cs:1:1' }), /outside the workspace/);
    assert.match(await error(findSymbolsTool, { at: 'src/App/Program.cs:3:25', hierarchy: 'base' }), /is method Area, not a type/);
    assert.match(await error(findSymbolsTool, { hierarchy: 'both' }), /hierarchy needs a type/);
    assert.match(
      await error(findSymbolsTool, { query: 'Shape', hierarchy: 'up' }),
      /hierarchy: Invalid option: expected one of "base"\|"derived"\|"both"/,
    );
    assert.match(await error(findReferencesTool, { symbol: '  ' }), /symbol: symbol is required: .* \(or give at: "path:line:column"\)/);
    const nothing = await registry.execute(findSymbolsTool, { at: 'src/App/Program.cs:3:1' }, c);
    assert.ok(nothing.ok && /No declaration in the workspace for the symbol at src\/App\/Program\.cs:3:1/.test(nothing.content));
    const noType = await registry.execute(findSymbolsTool, { query: 'Triangle', hierarchy: 'both' }, c);
    assert.ok(noType.ok && /No class, interface, struct or record named "Triangle"/.test(noType.content));
  });
});

describe('find_symbols and find_references through a language-server provider', () => {
  /** Stands in for the C# language server: answers from fixed data and records what it was asked. */
  function serverLike(): { provider: SymbolProvider; calls: string[] } {
    const calls: string[] = [];
    const provider: SymbolProvider = {
      findSymbols: async () => [],
      findReferences: async (name) => {
        calls.push(`references ${name}`);
        return [{ filePath: 'src/Use.cs', line: 9, column: 5, preview: 'Widget.Spin();' }];
      },
      findDefinitions: async (at) => {
        calls.push(`definitions ${at.filePath}:${at.line}:${at.column}`);
        return [
          {
            name: 'Widget',
            kind: 'class',
            filePath: 'src/Widget.cs',
            line: 3,
            column: 14,
            containerName: 'Toys',
            preview: 'public class Widget : Base',
          },
        ];
      },
      relatedTypes: async (typeName) => {
        calls.push(`related ${typeName}`);
        return [
          {
            type: { name: 'Widget', kind: 'class', filePath: 'src/Widget.cs', line: 3, column: 14, containerName: 'Toys' },
            supertypes: [{ name: 'Object', kind: 'class', containerName: 'System' }],
            subtypes: [{ name: 'Gadget', kind: 'class', filePath: 'src/Gadget.cs', line: 1, column: 14 }],
          },
        ];
      },
    };
    return { provider, calls };
  }

  it('pass the position and names through and render what the server says', async () => {
    const { provider, calls } = serverLike();
    const c = toolContext(memoryHost({ 'src/Use.cs': 'class Use {\n  void M() {\n    Widget.Spin();\n  }\n}\n' }, { symbols: provider }));
    const at = await registry.execute(findSymbolsTool, { at: 'src/Use.cs:3', query: 'Widget' }, c);
    assert.ok(
      at.ok && at.content.startsWith('The symbol at src/Use.cs:3:5 (Widget) is declared at:\nclass Widget — src/Widget.cs:3:14 (in Toys)'),
    );
    const refs = await registry.execute(findReferencesTool, { at: 'src/Use.cs:3:5' }, c);
    assert.ok(refs.ok && refs.content.startsWith('1 reference(s) to Toys.Widget (the symbol at src/Use.cs:3:5):'));
    const tree = await registry.execute(findSymbolsTool, { query: 'Toys.Widget', hierarchy: 'both' }, c);
    assert.deepEqual(bare(tree), {
      ok: true,
      content: [
        'class Widget — src/Widget.cs:3:14 (in Toys)',
        '  base types (base class and interfaces):',
        '    class Object (outside the workspace) (in System)',
        '  derived types (subclasses and implementations):',
        '    class Gadget — src/Gadget.cs:1:14',
      ].join('\n'),
    });
    assert.deepEqual(calls, ['definitions src/Use.cs:3:5', 'definitions src/Use.cs:3:5', 'references Toys.Widget', 'related Toys.Widget']);
  });

  it('say so when the provider cannot look up positions or hierarchies', async () => {
    const provider: SymbolProvider = { findSymbols: async () => [], findReferences: async () => [] };
    const c = toolContext(memoryHost({ 'a.cs': 'class A {}' }, { symbols: provider }));
    const at = await registry.execute(findSymbolsTool, { at: 'a.cs:1:7' }, c);
    assert.ok(!at.ok && /not available in this host; search by name instead/.test(at.error));
    const tree = await registry.execute(findSymbolsTool, { query: 'A', hierarchy: 'base' }, c);
    assert.ok(!tree.ok && /Type hierarchy is not available in this host/.test(tree.error));
  });

  it('offer at and hierarchy in the schema without making query or symbol required', () => {
    const symbols = inputJsonSchema(findSymbolsTool.input);
    assert.deepEqual(Object.keys(symbols.properties as object), ['query', 'kind', 'limit', 'at', 'hierarchy', 'implementations', 'file']);
    assert.equal(symbols.required, undefined);
    const references = inputJsonSchema(findReferencesTool.input);
    assert.deepEqual(Object.keys(references.properties as object), ['symbol', 'limit', 'at']);
    assert.equal(references.required, undefined);
  });
});
