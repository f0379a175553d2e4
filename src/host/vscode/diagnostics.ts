// Diagnostics from the language server for the files the agent edited. The server needs a moment
// after a file changes on disk, so this waits until the diagnostics of those files settle (no
// change for a short quiet period, with a cap), and reports only errors that are new since before
// the edit: errors the file already had are the baseline's business, not the agent's.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiagnosticsProvider } from '../../core/host';
import type { CompilationDiagnostic } from '../../core/model';
import { waitForCSharpReady } from './csharp-extension';

export interface DiagnosticsOptions {
  /** No change for this long means settled. */
  quietMs?: number;
  /** Never wait longer than this. */
  capMs?: number;
  /** Waiting for the C# extension's project load is bounded by this. */
  projectLoadCapMs?: number;
}

const DEFAULT_QUIET_MS = 750;
const DEFAULT_CAP_MS = 8000;
const DEFAULT_PROJECT_LOAD_CAP_MS = 30_000;

/** Errors differ across an edit only by position when lines move: compare them without it. */
function fingerprint(diagnostic: vscode.Diagnostic): string {
  return `${codeOf(diagnostic)}|${diagnostic.message}`;
}

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
}

export class VscodeDiagnostics implements DiagnosticsProvider {
  /** Per file, the error fingerprints it had just before the agent's last write to it. */
  private readonly before = new Map<string, Map<string, number>>();
  private readonly quietMs: number;
  private readonly capMs: number;
  private readonly projectLoadCapMs: number;

  constructor(
    private readonly workspaceRoot: string,
    options: DiagnosticsOptions = {},
  ) {
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
    this.capMs = options.capMs ?? DEFAULT_CAP_MS;
    this.projectLoadCapMs = options.projectLoadCapMs ?? DEFAULT_PROJECT_LOAD_CAP_MS;
  }

  /** Called by the file system just before a workspace file is written. */
  rememberBefore(absPath: string): void {
    const counts = new Map<string, number>();
    for (const diagnostic of errorsOf(vscode.Uri.file(absPath))) {
      const key = fingerprint(diagnostic);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    this.before.set(path.resolve(absPath), counts);
  }

  async errorsFor(relPaths: readonly string[], signal?: AbortSignal): Promise<CompilationDiagnostic[]> {
    await waitForCSharpReady(this.projectLoadCapMs);
    const uris = relPaths.map((rel) => vscode.Uri.file(path.resolve(this.workspaceRoot, rel)));
    // The server analyses open documents; opening one (without an editor) makes it look at the new text.
    await Promise.all(uris.map((uri) => Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined)));
    await this.settle(uris, signal);
    return uris.flatMap((uri, index) => this.newErrors(uri, relPaths[index]));
  }

  private newErrors(uri: vscode.Uri, relPath: string): CompilationDiagnostic[] {
    const remaining = new Map(this.before.get(path.resolve(uri.fsPath)) ?? []);
    const result: CompilationDiagnostic[] = [];
    for (const diagnostic of errorsOf(uri)) {
      const key = fingerprint(diagnostic);
      const left = remaining.get(key) ?? 0;
      if (left > 0) {
        remaining.set(key, left - 1);
        continue;
      }
      result.push({
        code: codeOf(diagnostic),
        message: diagnostic.message,
        filePath: relPath.split(path.sep).join('/'),
        line: diagnostic.range.start.line + 1,
        column: diagnostic.range.start.character + 1,
      });
    }
    return result;
  }

  /** Resolves once the files' diagnostics have not changed for `quietMs`, or at `capMs`, or on abort. */
  private settle(uris: readonly vscode.Uri[], signal?: AbortSignal): Promise<void> {
    const watched = new Set(uris.map((uri) => uri.toString()));
    return new Promise<void>((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(quiet);
        clearTimeout(cap);
        listener.dispose();
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const rearm = (): void => {
        clearTimeout(quiet);
        quiet = setTimeout(finish, this.quietMs);
      };
      const listener = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => watched.has(uri.toString()))) rearm();
      });
      const cap = setTimeout(finish, this.capMs);
      signal?.addEventListener('abort', finish, { once: true });
      rearm();
    });
  }
}
