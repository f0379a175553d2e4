// The VS Code host on its own: diagnostics that settle and report only new errors, symbols through
// the language server's provider commands (a fake C# "server" registered here, since no C#
// extension is installed) with the text-index fallback, and dotnet build as a VS Code task whose
// result the validator still gets.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../src/core/host';
import { findSymbolsTool } from '../../../src/core/tools/symbol-tools';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { VscodeDiagnostics } from '../../../src/host/vscode/diagnostics';
import { createVscodeHost, FALLBACK_LOG, FALLBACK_MESSAGE, FallbackNotice } from '../../../src/host/vscode/index';
import { SOURCE, workspaceRoot } from './helpers';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const TESTS_SOURCE = 'tests/Calculator.Tests/CalcTests.cs';

interface FakeServer {
  /** What the "server" was asked, in order. */
  calls: string[];
  /** 1-based positions of the names the fake answers with, read from the workspace's files. */
  positions: Record<'divide' | 'calc' | 'divideUse', { line: number; column: number }>;
  dispose(): void;
}

/**
 * A stand-in for the C# extension's language server: the four kinds of provider the host reaches
 * through VS Code's commands, registered for 'csharp' in this extension host. Its answers differ
 * from the text index's (container "FakeServer", a metadata base type) so a test can tell who answered.
 */
function registerFakeCSharpServer(root: string): FakeServer {
  const source = vscode.Uri.file(path.join(root, SOURCE));
  const tests = vscode.Uri.file(path.join(root, TESTS_SOURCE));
  const find = (rel: string, marker: string, name: string): { line: number; column: number } => {
    const lines = readFileSync(path.join(root, rel), 'utf8').split(/\r?\n/);
    const line = lines.findIndex((l) => l.includes(marker));
    assert.ok(line >= 0, `${marker} is in ${rel}`);
    return { line: line + 1, column: lines[line].indexOf(marker) + marker.indexOf(name) + 1 };
  };
  const positions = {
    divide: find(SOURCE, 'int Divide(', 'Divide'),
    calc: find(SOURCE, 'class Calc', 'Calc'),
    divideUse: find(TESTS_SOURCE, 'Calc.Divide(6, 3)', 'Divide'),
  };
  const at = (p: { line: number; column: number }): vscode.Position => new vscode.Position(p.line - 1, p.column - 1);
  const where = (uri: vscode.Uri, p: vscode.Position): string =>
    `${path.relative(root, uri.fsPath).split(path.sep).join('/')}:${p.line + 1}:${p.character + 1}`;
  const word = (p: vscode.Position, length: number): vscode.Range => new vscode.Range(p, p.translate(0, length));
  const calls: string[] = [];
  const declarations = [
    new vscode.SymbolInformation(
      'Divide',
      vscode.SymbolKind.Method,
      'FakeServer.Calc',
      new vscode.Location(source, word(at(positions.divide), 6)),
    ),
    new vscode.SymbolInformation('Calc', vscode.SymbolKind.Class, 'FakeServer', new vscode.Location(source, word(at(positions.calc), 4))),
  ];
  const calcItem = new vscode.TypeHierarchyItem(
    vscode.SymbolKind.Class,
    'Calc',
    'FakeServer',
    source,
    word(at(positions.calc), 4),
    word(at(positions.calc), 4),
  );
  const origin = new vscode.Position(0, 0);
  const selector: vscode.DocumentSelector = { language: 'csharp' };
  const registrations = [
    vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols(query) {
        calls.push(`workspace symbols ${JSON.stringify(query)}`);
        return declarations.filter((d) => d.name.toLowerCase().includes(query.toLowerCase()));
      },
    }),
    vscode.languages.registerDefinitionProvider(selector, {
      provideDefinition(document, position) {
        calls.push(`definition ${where(document.uri, position)}`);
        return new vscode.Location(source, word(at(positions.divide), 6));
      },
    }),
    vscode.languages.registerReferenceProvider(selector, {
      provideReferences(document, position) {
        calls.push(`references ${where(document.uri, position)}`);
        return [new vscode.Location(source, word(at(positions.divide), 6)), new vscode.Location(tests, word(at(positions.divideUse), 6))];
      },
    }),
    vscode.languages.registerTypeHierarchyProvider(selector, {
      prepareTypeHierarchy(document, position) {
        calls.push(`prepare type hierarchy ${where(document.uri, position)}`);
        return [calcItem];
      },
      provideTypeHierarchySupertypes(item) {
        calls.push(`supertypes of ${item.name}`);
        const metadata = vscode.Uri.parse('csharp-metadata:/System/Object.cs');
        return [
          new vscode.TypeHierarchyItem(
            vscode.SymbolKind.Class,
            'Object',
            'System',
            metadata,
            new vscode.Range(origin, origin),
            new vscode.Range(origin, origin),
          ),
        ];
      },
      provideTypeHierarchySubtypes(item) {
        calls.push(`subtypes of ${item.name}`);
        const name = word(new vscode.Position(4, 13), 9);
        return [new vscode.TypeHierarchyItem(vscode.SymbolKind.Class, 'CalcTests', '', tests, name, name)];
      },
    }),
  ];
  return { calls, positions, dispose: () => registrations.forEach((r) => r.dispose()) };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: (m) => lines.push(m), info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
}

function error(line: number, code: string, message: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 4, line, 10), message, vscode.DiagnosticSeverity.Error);
  diagnostic.code = code;
  return diagnostic;
}

describe('the VS Code host (real extension host)', function () {
  this.timeout(180_000);

  it('reports only the errors that are new since before the edit, once the diagnostics settle', async () => {
    const collection = vscode.languages.createDiagnosticCollection('ironbees-test');
    try {
      const uri = vscode.Uri.file(path.join(workspaceRoot(), SOURCE));
      const old = error(3, 'CS0001', 'an error the file already had');
      collection.set(uri, [old]);
      const diagnostics = new VscodeDiagnostics(workspaceRoot(), { quietMs: 300, capMs: 5000, projectLoadCapMs: 100 });
      diagnostics.rememberBefore(uri.fsPath);
      // The "language server" answers a moment after the edit, in two steps.
      setTimeout(() => collection.set(uri, [error(5, 'CS0001', 'an error the file already had'), error(17, 'CS1002', '; expected')]), 150);
      setTimeout(
        () =>
          collection.set(uri, [
            error(5, 'CS0001', 'an error the file already had'),
            error(17, 'CS1002', '; expected'),
            new vscode.Diagnostic(new vscode.Range(1, 0, 1, 1), 'a warning', vscode.DiagnosticSeverity.Warning),
          ]),
        350,
      );
      const started = Date.now();
      const found = await diagnostics.errorsFor([SOURCE]);
      assert.ok(Date.now() - started >= 350, 'it waited for the second change');
      assert.deepEqual(found, [{ code: 'CS1002', message: '; expected', filePath: SOURCE, line: 18, column: 5 }]);
    } finally {
      collection.dispose();
    }
  });

  it('asks the C# language server through the execute*Provider and type hierarchy commands', async () => {
    const server = registerFakeCSharpServer(workspaceRoot());
    try {
      const host = createVscodeHost(workspaceRoot(), { logger: quiet, languageServer: true });
      const { divide, calc, divideUse } = server.positions;

      const symbols = await host.symbols.findSymbols('Divide');
      assert.deepEqual(symbols, [
        { name: 'Divide', kind: 'method', filePath: SOURCE, line: divide.line, column: divide.column, containerName: 'FakeServer.Calc' },
      ]);

      const references = await host.symbols.findReferences('Divide');
      assert.deepEqual(
        references.map((r) => `${r.filePath}:${r.line}:${r.column}`),
        [`${SOURCE}:${divide.line}:${divide.column}`, `${TESTS_SOURCE}:${divideUse.line}:${divideUse.column}`],
      );
      assert.match(references[1].preview, /Calc\.Divide\(6, 3\)/);

      const definitions = await host.symbols.findDefinitions({ filePath: TESTS_SOURCE, line: divideUse.line, column: divideUse.column });
      assert.deepEqual(
        definitions.map((d) => `${d.kind} ${d.containerName}.${d.name} ${d.filePath}:${d.line}:${d.column}`),
        [`method FakeServer.Calc.Divide ${SOURCE}:${divide.line}:${divide.column}`],
      );

      const [relations, ...others] = await host.symbols.relatedTypes('Calc');
      assert.equal(others.length, 0);
      assert.deepEqual(relations.type, {
        name: 'Calc',
        kind: 'class',
        filePath: SOURCE,
        line: calc.line,
        column: calc.column,
        containerName: 'FakeServer',
      });
      assert.deepEqual(
        relations.supertypes,
        [{ name: 'Object', kind: 'class', containerName: 'System' }],
        'metadata types have no workspace position',
      );
      assert.deepEqual(relations.subtypes, [{ name: 'CalcTests', kind: 'class', filePath: TESTS_SOURCE, line: 5, column: 14 }]);

      // And the model-facing tool on top of it.
      const registry = new ToolRegistry().register(findSymbolsTool);
      const outcome = await registry.execute(
        findSymbolsTool,
        { at: `${TESTS_SOURCE}:${divideUse.line}`, query: 'Divide' },
        { host, overlay: new StagedOverlay(host) },
      );
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      assert.match(
        outcome.content,
        new RegExp(`\\(Divide\\) is declared at:\\nmethod Divide — ${SOURCE}:${divide.line}:${divide.column} \\(in FakeServer\\.Calc\\)`),
      );

      assert.deepEqual(server.calls, [
        'workspace symbols "Divide"',
        'workspace symbols "Divide"',
        `references ${SOURCE}:${divide.line}:${divide.column}`,
        `definition ${TESTS_SOURCE}:${divideUse.line}:${divideUse.column}`,
        'workspace symbols "Divide"',
        'workspace symbols "Calc"',
        `prepare type hierarchy ${SOURCE}:${calc.line}:${calc.column}`,
        'supertypes of Calc',
        'subtypes of Calc',
        `definition ${TESTS_SOURCE}:${divideUse.line}:${divideUse.column}`,
        'workspace symbols "Divide"',
      ]);
    } finally {
      server.dispose();
    }
  });

  it('falls back to the text index when no provider answers, and says so once', async () => {
    const logger = recordingLogger();
    const host = createVscodeHost(workspaceRoot(), { logger, languageServer: true });
    const [divide] = await host.symbols.findSymbols('Divide', { kind: 'method' });
    assert.deepEqual([divide?.filePath, divide?.containerName], [SOURCE, 'Calculator.Calc'], 'the index names the real namespace');
    const definitions = await host.symbols.findDefinitions({ filePath: SOURCE, line: divide.line, column: divide.column });
    assert.deepEqual(
      definitions.map((d) => d.name),
      ['Divide'],
    );
    const [calc] = await host.symbols.relatedTypes('Calc');
    assert.deepEqual(calc?.supertypes, []);
    const fallbackLines = logger.lines.filter((line) => /gave no symbol answer/.test(line));
    assert.equal(fallbackLines.length, 1, logger.lines.join('\n'));
  });

  it('tells the person once, in the log and a notification, when there is no C# extension', () => {
    const logger = recordingLogger();
    const shown: string[] = [];
    const notice = new FallbackNotice((message) => shown.push(message));
    for (let run = 0; run < 3; run++) createVscodeHost(workspaceRoot(), { logger, languageServer: false, fallbackNotice: notice });
    assert.deepEqual(logger.lines, [FALLBACK_LOG]);
    assert.deepEqual(shown, [FALLBACK_MESSAGE]);
    createVscodeHost(workspaceRoot(), { logger, languageServer: true, fallbackNotice: notice });
    assert.equal(logger.lines.length, 1, 'nothing to say when a language server is there');
  });

  it('answers symbol questions from the text index when no C# language server answers', async () => {
    const host = createVscodeHost(workspaceRoot(), { logger: quiet, languageServer: false });
    assert.equal(host.diagnostics, undefined, 'no diagnostics without a language server: the build decides');
    const symbols = await host.symbols.findSymbols('Divide', { kind: 'method' });
    assert.equal(symbols[0]?.filePath, SOURCE);
    const withServer = createVscodeHost(workspaceRoot(), { logger: quiet, languageServer: true });
    const fallback = await withServer.symbols.findSymbols('Divide', { kind: 'method' });
    assert.equal(fallback[0]?.name, 'Divide', 'an empty answer from the provider commands falls back to the index');
    const references = await withServer.symbols.findReferences('Divide');
    assert.ok(
      references.some((r) => r.filePath.endsWith('CalcTests.cs')),
      JSON.stringify(references),
    );
  });

  it('runs dotnet build as a VS Code task and still returns its exit code and output', async () => {
    const host = createVscodeHost(workspaceRoot(), { logger: quiet, languageServer: false });
    const started: vscode.Task[] = [];
    const listener = vscode.tasks.onDidStartTask((event) => started.push(event.execution.task));
    try {
      const streamed: string[] = [];
      const result = await host.process.run('dotnet', ['build', 'Calculator.slnx', '-nologo'], {
        cwd: workspaceRoot(),
        timeoutMs: 170_000,
        onOutput: (chunk) => streamed.push(chunk),
      });
      assert.equal(result.exitCode, 0, result.stdout.slice(-2000));
      assert.match(result.stdout, /Build succeeded/);
      assert.ok(streamed.join('').includes('Build succeeded'), 'output streamed to the caller too');
      const task = started.find((t) => t.source === 'Ironbees');
      assert.equal(task?.name, 'dotnet build');
      assert.equal(task?.definition.type, 'ironbees');
      const version = await host.process.run('dotnet', ['--version'], { cwd: workspaceRoot(), timeoutMs: 60_000 });
      assert.equal(version.exitCode, 0);
      assert.equal(started.filter((t) => t.source === 'Ironbees').length, 1, 'quick dotnet calls run without a task');
    } finally {
      listener.dispose();
    }
  });
});
