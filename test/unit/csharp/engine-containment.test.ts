// The engine's answers pass workspace containment before the model sees them: a fake engine names
// places outside the workspace (a linked file beside it, an absolute path, a folder linked out, the
// tooling's own folders); every one of them is left out of every answer, and a base type declared
// outside keeps its name but not its place.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineSymbolProvider } from '../../../src/core/csharp/engine/engine-symbols';
import type { EngineQueries } from '../../../src/core/csharp/engine/engine-symbols';
import { CSharpTextIndex } from '../../../src/core/csharp/text-index';
import type { SymbolDefinition, TypeRelations } from '../../../src/core/host';
import { NodeFileSystem } from '../../../src/host/node/fs';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Answers every question with `answers[method]`, and records what it was asked. */
function fakeEngine(answers: Record<string, unknown>): EngineQueries & { asked: Array<{ method: string; params: unknown }> } {
  const asked: Array<{ method: string; params: unknown }> = [];
  return {
    asked,
    noteChanged: () => undefined,
    query: async <T>(method: string, params: unknown): Promise<T> => {
      asked.push({ method, params });
      return structuredClone(answers[method]) as T;
    },
  };
}

const place = (filePath: string, line = 3): SymbolDefinition => ({
  name: 'Quantity',
  kind: 'property',
  filePath,
  line,
  column: 16,
  containerName: 'StockItem',
  preview: 'public int Quantity { get; set; }',
});

describe('Engine answers are filtered through workspace containment', () => {
  let parent: string;
  let root: string;

  before(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-engine-containment-'));
    root = path.join(parent, 'ws');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(parent, 'elsewhere'));
    fs.writeFileSync(path.join(parent, 'elsewhere', 'Shared.cs'), 'class Shared {}');
    fs.writeFileSync(path.join(root, 'src', 'StockItem.cs'), 'class StockItem {}');
    // A folder inside the workspace that is a link to a folder outside it.
    fs.symlinkSync(path.join(parent, 'elsewhere'), path.join(root, 'linked'), 'dir');
  });

  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  const OUTSIDE = [
    '../elsewhere/Shared.cs',
    '/usr/share/dotnet/sdk/Generated.cs',
    'linked/Shared.cs',
    '.git/hooks/x.cs',
    '.ironbees/runs/x.cs',
    '',
  ];

  function provider(answers: Record<string, unknown>): { symbols: EngineSymbolProvider; engine: ReturnType<typeof fakeEngine> } {
    const engine = fakeEngine(answers);
    const nodeFs = new NodeFileSystem();
    return { engine, symbols: new EngineSymbolProvider(engine, new CSharpTextIndex(nodeFs, root), nodeFs, root, quiet) };
  }

  it('references, definitions, symbols, implementations and outlines keep only the workspace places', async () => {
    const mixed = [place('src/StockItem.cs', 3), ...OUTSIDE.map((p) => place(p, 9)), place('src/StockItem.cs', 7)];
    const { symbols } = provider({ references: mixed, definitions: mixed, symbols: mixed, implementations: mixed, outline: mixed });
    const at = { filePath: 'src/StockItem.cs', line: 3, column: 16 };
    const inside = [place('src/StockItem.cs', 3), place('src/StockItem.cs', 7)];
    assert.deepEqual(await symbols.findReferencesAt(at), inside);
    assert.deepEqual(await symbols.findReferences('Quantity'), inside);
    assert.deepEqual(await symbols.findDefinitions(at), inside);
    assert.deepEqual(await symbols.findSymbols('Quantity'), inside);
    assert.deepEqual(await symbols.findImplementations(at), inside);
    assert.deepEqual(await symbols.outline('src/StockItem.cs'), inside);
  });

  it('hierarchy: a type declared outside is dropped; a related type outside keeps its name, not its place', async () => {
    const relations: TypeRelations[] = [
      {
        type: { name: 'StockItem', kind: 'class', filePath: 'src/StockItem.cs', line: 1, column: 7 },
        supertypes: [{ name: 'Shared', kind: 'class', containerName: 'Lib', filePath: 'linked/Shared.cs', line: 1, column: 7 }],
        subtypes: [
          { name: 'Special', kind: 'class', filePath: 'src/StockItem.cs', line: 5, column: 7 },
          { name: 'Generated', kind: 'class', filePath: '../elsewhere/Shared.cs', line: 2, column: 7 },
        ],
      },
      {
        type: { name: 'StockItem', kind: 'class', filePath: '/tmp/metadata/StockItem.cs', line: 1, column: 7 },
        supertypes: [],
        subtypes: [],
      },
    ];
    const { symbols } = provider({ relatedTypes: relations });
    assert.deepEqual(await symbols.relatedTypes('StockItem'), [
      {
        type: { name: 'StockItem', kind: 'class', filePath: 'src/StockItem.cs', line: 1, column: 7 },
        supertypes: [{ name: 'Shared', kind: 'class', containerName: 'Lib' }],
        subtypes: [
          { name: 'Special', kind: 'class', filePath: 'src/StockItem.cs', line: 5, column: 7 },
          { name: 'Generated', kind: 'class' },
        ],
      },
    ]);
  });

  it('sends the staged C# files with each question, and nothing when none are staged', async () => {
    const { symbols, engine } = provider({ symbols: [] });
    await symbols.findSymbols('Quantity', { staged: [{ path: 'src/StockItem.cs', text: 'class StockItem { int Quantity; }' }] });
    await symbols.findSymbols('Quantity', { staged: [] });
    assert.deepEqual(engine.asked, [
      {
        method: 'symbols',
        params: {
          query: 'Quantity',
          kind: undefined,
          limit: 100,
          staged: [{ path: 'src/StockItem.cs', text: 'class StockItem { int Quantity; }' }],
        },
      },
      { method: 'symbols', params: { query: 'Quantity', kind: undefined, limit: 100 } },
    ]);
  });
});
