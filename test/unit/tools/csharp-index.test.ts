import * as assert from 'node:assert/strict';
import type { SymbolInfo } from '../../../src/core/host';
import { parseDeclarations } from '../../../src/core/csharp/declarations';
import { blankNonCode } from '../../../src/core/csharp/lexer';
import { columnOf, identifierAt } from '../../../src/core/csharp/position';
import { humps, matchRank } from '../../../src/core/csharp/symbol-match';
import { CSharpTextIndex } from '../../../src/core/csharp/text-index';
import { MEMORY_ROOT, MemoryFileSystem } from './memory-host';

const SAMPLE = `using System;
using System.Collections.Generic;

// class CommentedOut {}
namespace Acme.Math
{
    /* struct AlsoCommented { } */
    [Serializable]
    public sealed partial class Calculator<T> : ICalculator where T : struct
    {
        private readonly int _count;
        public const string Banner = "class InString { }";
        public event EventHandler? Changed;
        public int Total { get; private set; } = 5;
        public int Double => _count * 2;
        public Calculator() : this(1) { }
        public Calculator(int seed) { var s = $"{seed} {"}"}"; }
        public int Add(int a, int b) => a + b;
        public TOut Map<TOut>(Func<T, TOut> f) where TOut : class { return default!; }
        public static Calculator<T> operator +(Calculator<T> a, Calculator<T> b) => a;
        public int this[int i] => i;
        Dictionary<string, List<int>> _cache = new();

        public class Inner
        {
            public void Deep() { void Local() { } Local(); }
            private enum Mode : byte { Off = 0, [Obsolete] On = 1 << 1, Auto }
        }

        public delegate void Handler(object sender);
        public record Point(int X, int Y = 0);
        public readonly record struct Size(int W, int H);
    }

    public interface ICalculator
    {
        int Add(int a, int b);
        string Name { get; }
    }
}
`;

function byName(symbols: ReadonlyArray<Omit<SymbolInfo, 'filePath'>>, name: string) {
  const found = symbols.filter((s) => s.name === name);
  assert.ok(found.length > 0, `no symbol named ${name}`);
  return found;
}

describe('C# lexer', () => {
  it('blanks comments, strings, chars and preprocessor lines but keeps positions', () => {
    const source =
      'int a = 1; // note {\n/* block\n { */ string s = "x { \\" }"; char c = \'{\';\n#if DEBUG\nvar v = @"a""{b"; var r = """\n { raw\n """;\n';
    const blanked = blankNonCode(source);
    assert.equal(blanked.length, source.length);
    assert.equal(blanked.split('\n').length, source.split('\n').length);
    assert.ok(!/[{}"']/.test(blanked), `left: ${JSON.stringify(blanked)}`);
    assert.match(blanked, /int a = 1;/);
    assert.equal(blanked.indexOf('string s'), source.indexOf('string s'));
  });

  it('keeps code inside interpolation holes out of the blanking but never the strings within them', () => {
    const blanked = blankNonCode('var s = $"a {Call("}")} b"; int after;');
    assert.match(blanked, /int after;$/);
    assert.ok(!blanked.includes('}'));
  });
});

describe('C# declarations', () => {
  const symbols = parseDeclarations(SAMPLE);

  it('finds namespaces, types and nested types with their containers', () => {
    assert.deepEqual(byName(symbols, 'Acme.Math')[0], { name: 'Acme.Math', kind: 'namespace', line: 5, column: 11 });
    assert.deepEqual(
      byName(symbols, 'Calculator').find((s) => s.kind === 'class'),
      { name: 'Calculator', kind: 'class', line: 9, column: 33, containerName: 'Acme.Math', bases: ['ICalculator'] },
    );
    assert.equal(byName(symbols, 'Inner')[0].containerName, 'Acme.Math.Calculator');
    assert.equal(byName(symbols, 'Deep')[0].containerName, 'Acme.Math.Calculator.Inner');
    assert.equal(byName(symbols, 'Mode')[0].kind, 'enum');
    assert.equal(byName(symbols, 'ICalculator').find((s) => s.kind === 'interface')?.containerName, 'Acme.Math');
  });

  it('classifies members', () => {
    const kinds = (name: string): string[] => byName(symbols, name).map((s) => s.kind);
    assert.deepEqual(kinds('_count'), ['field']);
    assert.deepEqual(kinds('Banner'), ['field']);
    assert.deepEqual(kinds('Changed'), ['event']);
    assert.deepEqual(kinds('Total'), ['property']);
    assert.deepEqual(kinds('Double'), ['property']);
    assert.deepEqual(kinds('Calculator'), ['class', 'constructor', 'constructor']);
    assert.deepEqual(kinds('Add'), ['method', 'method']);
    assert.deepEqual(kinds('Map'), ['method']);
    assert.deepEqual(kinds('operator +'), ['method']);
    assert.deepEqual(kinds('this[]'), ['property']);
    assert.deepEqual(kinds('_cache'), ['field']);
    assert.deepEqual(kinds('Handler'), ['delegate']);
    assert.deepEqual(kinds('Point'), ['record']);
    assert.deepEqual(kinds('Size'), ['record']);
    assert.deepEqual(kinds('Name'), ['property']);
  });

  it('finds enum members and positional record properties', () => {
    assert.deepEqual(
      symbols.filter((s) => s.containerName === 'Acme.Math.Calculator.Inner.Mode').map((s) => s.name),
      ['Off', 'On', 'Auto'],
    );
    assert.deepEqual(
      symbols.filter((s) => s.containerName === 'Acme.Math.Calculator.Point').map((s) => `${s.kind} ${s.name}`),
      ['property X', 'property Y'],
    );
    assert.deepEqual(
      symbols.filter((s) => s.containerName === 'Acme.Math.Calculator.Size').map((s) => s.name),
      ['W', 'H'],
    );
  });

  it('ignores comments, strings, locals and local functions', () => {
    const names = new Set(symbols.map((s) => s.name));
    for (const ghost of ['CommentedOut', 'AlsoCommented', 'InString', 'Local', 's', 'seed', 'a', 'b', 'f']) {
      assert.ok(!names.has(ghost), `${ghost} should not be a symbol`);
    }
  });

  it('reports the line and column of the name', () => {
    const add = byName(symbols, 'Add').find((s) => s.containerName === 'Acme.Math.Calculator');
    assert.deepEqual([add?.line, add?.column], [18, 20]);
  });

  it('handles file-scoped namespaces, top-level statements and stray braces', () => {
    const file = parseDeclarations(
      'namespace Shop.Orders;\n\npublic record Order(Guid Id);\n}\ninternal static class Extensions { public static void Log(this Order o) { } }\n',
    );
    assert.deepEqual(
      file.map((s) => `${s.kind} ${s.name} ${s.containerName ?? '-'}`),
      [
        'namespace Shop.Orders -',
        'record Order Shop.Orders',
        'property Id Shop.Orders.Order',
        'class Extensions Shop.Orders',
        'method Log Shop.Orders.Extensions',
      ],
    );
    const program = parseDeclarations('using X;\nvar app = Build(() => { return 1; });\napp.Run();\nclass Helper { }\n');
    assert.deepEqual(
      program.map((s) => s.name),
      ['Helper'],
    );
  });
});

describe('C# base lists', () => {
  const bases = (source: string): Record<string, string[]> =>
    Object.fromEntries(
      parseDeclarations(source)
        .filter((d) => d.bases)
        .map((d) => [d.name, d.bases ?? []]),
    );

  it('reads the bases after the name, past generic parameters, primary constructors and constraints', () => {
    assert.deepEqual(
      bases(
        'class A<T> : B<T>, IC where T : new() { }\n' +
          'record R(int X) : Base(X), IEquatable<R>;\n' +
          'struct S : global::System.IDisposable { }\n' +
          'interface I : IA, IB<Dictionary<string, int>> { }\n' +
          'class N : Outer.Inner { }\n' +
          'enum E : byte { One }\n' +
          'class Plain { }\n',
      ),
      {
        A: ['B<T>', 'IC'],
        R: ['Base', 'IEquatable<R>'],
        S: ['global::System.IDisposable'],
        I: ['IA', 'IB<Dictionary<string, int>>'],
        N: ['Outer.Inner'],
      },
    );
  });
});

describe('the identifier at a position', () => {
  it('finds the word under (or just after) the column, with the name before a dot', () => {
    const line = '    var c = new Calculator<int>(); c?.Add(1, 2); @class.Run();';
    assert.deepEqual(identifierAt(line, 40), { name: 'Add', column: 39, qualifier: 'c' });
    assert.deepEqual(identifierAt(line, 42), { name: 'Add', column: 39, qualifier: 'c' }, 'the caret just after the word');
    assert.deepEqual(identifierAt(line, 17), { name: 'Calculator', column: 17 });
    assert.deepEqual(identifierAt(line, 50), { name: 'class', column: 51 }, 'a verbatim identifier starts after its @');
    assert.deepEqual(identifierAt(line, 57), { name: 'Run', column: 57, qualifier: 'class' });
    assert.equal(identifierAt(line, 2), null);
    assert.equal(columnOf(line, 'Add'), 39);
    assert.equal(columnOf(line, 'Ad'), null);
  });
});

describe('symbol matching', () => {
  it('ranks exact, case-insensitive, prefix, substring and camel-hump matches', () => {
    const rank = (name: string, query: string, containerName?: string): number | null => matchRank({ name, containerName }, query);
    assert.equal(rank('Calculator', 'Calculator'), 0);
    assert.equal(rank('Calculator', 'calculator'), 1);
    assert.equal(rank('CalculatorTests', 'calc'), 2);
    assert.equal(rank('MyCalculator', 'calc'), 3);
    assert.equal(rank('CalculatorTests', 'CT'), 4);
    assert.equal(rank('CalculatorTests', 'calTe'), 4);
    assert.equal(rank('HttpServerConfig', 'HSC'), 4);
    assert.equal(rank('Calculator', 'xyz'), null);
    assert.equal(rank('Add', 'Calculator.Add', 'Acme.Math.Calculator'), 0);
    assert.equal(rank('Add', 'Other.Add', 'Acme.Math.Calculator'), null);
    assert.deepEqual(humps('HTTPServer2Config'), ['http', 'server', '2', 'config']);
  });
});

describe('CSharpTextIndex', () => {
  let fs: MemoryFileSystem;
  let index: CSharpTextIndex;

  beforeEach(() => {
    fs = new MemoryFileSystem()
      .put('src/Calc/Calculator.cs', SAMPLE)
      .put(
        'tests/CalculatorTests.cs',
        'namespace Acme.Tests;\npublic class CalculatorTests\n{\n    // Add is tested here\n    public void Add_Works() { var c = new Calculator<int>(); c.Add(1, 2); var s = "Add"; }\n}\n',
      )
      .put('src/Calc/obj/Generated.cs', 'class Generated { void Add() {} }')
      .put('README.md', 'class NotCSharp {}');
    index = new CSharpTextIndex(fs, MEMORY_ROOT);
  });

  it('finds symbols with exact matches first, then types before members', async () => {
    const found = await index.findSymbols('Calculator');
    assert.deepEqual(
      found.map((s) => `${s.kind} ${s.name} ${s.filePath}:${s.line}`),
      [
        'class Calculator src/Calc/Calculator.cs:9',
        'constructor Calculator src/Calc/Calculator.cs:16',
        'constructor Calculator src/Calc/Calculator.cs:17',
        'class CalculatorTests tests/CalculatorTests.cs:2',
        'interface ICalculator src/Calc/Calculator.cs:35',
      ],
    );
  });

  it('filters by kind, limits, and never indexes obj/ or non-.cs files', async () => {
    const methods = await index.findSymbols('Add', { kind: 'method' });
    assert.deepEqual(
      methods.map((s) => `${s.containerName}.${s.name}`),
      ['Acme.Math.Calculator.Add', 'Acme.Math.ICalculator.Add', 'Acme.Tests.CalculatorTests.Add_Works'],
    );
    assert.equal((await index.findSymbols('', { kind: 'class', limit: 2 })).length, 2);
    assert.deepEqual(await index.findSymbols('Generated'), []);
    assert.deepEqual(await index.findSymbols('NotCSharp'), []);
  });

  it('finds whole-word references in code only, with previews', async () => {
    const refs = await index.findReferences('Calculator.Add');
    assert.deepEqual(
      refs.map((r) => `${r.filePath}:${r.line}:${r.column}`),
      ['src/Calc/Calculator.cs:18:20', 'src/Calc/Calculator.cs:37:13', 'tests/CalculatorTests.cs:5:64'],
    );
    assert.equal(refs[2].preview, 'public void Add_Works() { var c = new Calculator<int>(); c.Add(1, 2); var s = "Add"; }');
    assert.equal((await index.findReferences('Add', { limit: 1 })).length, 1);
    assert.deepEqual(await index.findReferences('not a name'), []);
  });

  it('is lazy and re-reads only invalidated files', async () => {
    assert.equal(fs.reads, 0);
    await index.findSymbols('Calculator');
    const afterFirst = fs.reads;
    assert.equal(afterFirst, 2);
    await index.findSymbols('Add');
    assert.equal(fs.reads, afterFirst);

    fs.put('tests/CalculatorTests.cs', 'public class RenamedTests { }');
    fs.put('src/New.cs', 'class BrandNew { }');
    index.invalidate(['tests/CalculatorTests.cs', 'src/New.cs']);
    assert.deepEqual(
      (await index.findSymbols('RenamedTests')).map((s) => s.filePath),
      ['tests/CalculatorTests.cs'],
    );
    assert.deepEqual(
      (await index.findSymbols('BrandNew')).map((s) => s.filePath),
      ['src/New.cs'],
    );
    assert.deepEqual(await index.findSymbols('CalculatorTests'), []);
    assert.equal(fs.reads, afterFirst + 2);
  });

  it('forgets deleted files after invalidation', async () => {
    await index.findSymbols('x');
    fs.files.delete([...fs.files.keys()].find((k) => k.endsWith('CalculatorTests.cs')) as string);
    index.invalidate(['tests/CalculatorTests.cs']);
    assert.deepEqual(await index.findSymbols('CalculatorTests'), []);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(index.findSymbols('x', { signal: controller.signal }), /stop/);
  });

  it('goes to the declarations of the identifier at a position, by name and qualifier', async () => {
    const use = await index.findDefinitions({ filePath: 'tests/CalculatorTests.cs', line: 5, column: 65 });
    assert.deepEqual(
      use.map((d) => `${d.kind} ${d.containerName}.${d.name} ${d.filePath}:${d.line}:${d.column}`),
      ['method Acme.Math.Calculator.Add src/Calc/Calculator.cs:18:20', 'method Acme.Math.ICalculator.Add src/Calc/Calculator.cs:37:13'],
    );
    assert.equal(use[0].preview, 'public int Add(int a, int b) => a + b;');
    const type = await index.findDefinitions({ filePath: 'tests/CalculatorTests.cs', line: 5, column: 43 });
    assert.deepEqual(type[0], {
      name: 'Calculator',
      kind: 'class',
      filePath: 'src/Calc/Calculator.cs',
      line: 9,
      column: 33,
      containerName: 'Acme.Math',
      preview: 'public sealed partial class Calculator<T> : ICalculator where T : struct',
    });
    const own = await index.findDefinitions({ filePath: 'src/Calc/Calculator.cs', line: 37, column: 13 });
    assert.deepEqual(
      own.map((d) => `${d.containerName}.${d.name}`),
      ['Acme.Math.ICalculator.Add'],
      'a declaration is its own definition',
    );
    fs.put('src/Use.cs', 'class Use { void M() { ICalculator.Add(1, 2); Nothing(); } }');
    index.invalidate(['src/Use.cs']);
    const qualified = await index.findDefinitions({ filePath: 'src/Use.cs', line: 1, column: 37 });
    assert.deepEqual(
      qualified.map((d) => d.containerName),
      ['Acme.Math.ICalculator'],
    );
    assert.deepEqual(await index.findDefinitions({ filePath: 'src/Use.cs', line: 1, column: 48 }), [], 'a name nothing declares');
    assert.deepEqual(await index.findDefinitions({ filePath: 'tests/CalculatorTests.cs', line: 4, column: 8 }), [], 'inside a comment');
    assert.deepEqual(await index.findDefinitions({ filePath: 'nope.cs', line: 1, column: 1 }), []);
  });

  it('answers base and derived types from base lists, merging partial types and resolving the nearest namespace first', async () => {
    fs.put(
      'src/Geo/Shapes.cs',
      [
        'namespace Geo;',
        'public interface IShape { double Area(); }',
        'public abstract class Shape : IShape, IComparable<Shape> { }',
        'public partial class Circle : Shape { }',
        'public sealed class Square : Geo.Shape { }',
      ].join('\n'),
    );
    fs.put('src/Geo/Circle.Disposable.cs', 'namespace Geo;\npublic partial class Circle : IDisposable { }\n');
    fs.put('src/Other/Shape.cs', 'namespace Other;\npublic class Shape { }\npublic class Blob : Shape { }\n');
    index.invalidate(['src/Geo/Shapes.cs']);
    const line = (t: { kind: string; name: string; filePath?: string; line?: number; containerName?: string }): string =>
      `${t.kind} ${t.containerName ?? '-'}.${t.name} ${t.filePath ?? 'outside'}${t.line ? `:${t.line}` : ''}`;
    const shapes = await index.relatedTypes('Shape');
    assert.deepEqual(
      shapes.map((r) => line(r.type)),
      ['class Geo.Shape src/Geo/Shapes.cs:3', 'class Other.Shape src/Other/Shape.cs:2'],
    );
    assert.deepEqual(shapes[0].supertypes.map(line), ['interface Geo.IShape src/Geo/Shapes.cs:2', 'other -.IComparable<Shape> outside']);
    assert.deepEqual(shapes[0].subtypes.map(line), ['class Geo.Circle src/Geo/Shapes.cs:4', 'class Geo.Square src/Geo/Shapes.cs:5']);
    assert.deepEqual(shapes[1].subtypes.map(line), ['class Other.Blob src/Other/Shape.cs:3']);
    const circle = await index.relatedTypes('Geo.Circle');
    assert.deepEqual(circle[0].supertypes.map(line), ['other -.IDisposable outside', 'class Geo.Shape src/Geo/Shapes.cs:3']);
    const iface = await index.relatedTypes('ishape');
    assert.deepEqual(
      iface[0].subtypes.map((t) => t.name),
      ['Shape'],
      'case-insensitive when nothing matches exactly',
    );
    assert.deepEqual(await index.relatedTypes('Calculator.Add'), [], 'members have no hierarchy');
  });
});
