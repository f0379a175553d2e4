// The VS Code host on its own: diagnostics that settle and report only new errors, symbols with
// the text-index fallback, and dotnet build as a VS Code task whose result the validator still gets.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../src/core/host';
import { VscodeDiagnostics } from '../../../src/host/vscode/diagnostics';
import { createVscodeHost } from '../../../src/host/vscode/index';
import { SOURCE, workspaceRoot } from './helpers';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

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
      setTimeout(() => collection.set(uri, [error(5, 'CS0001', 'an error the file already had'), error(17, 'CS1002', '; expected'), new vscode.Diagnostic(new vscode.Range(1, 0, 1, 1), 'a warning', vscode.DiagnosticSeverity.Warning)]), 350);
      const started = Date.now();
      const found = await diagnostics.errorsFor([SOURCE]);
      assert.ok(Date.now() - started >= 350, 'it waited for the second change');
      assert.deepEqual(found, [{ code: 'CS1002', message: '; expected', filePath: SOURCE, line: 18, column: 5 }]);
    } finally {
      collection.dispose();
    }
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
    assert.ok(references.some((r) => r.filePath.endsWith('CalcTests.cs')), JSON.stringify(references));
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
