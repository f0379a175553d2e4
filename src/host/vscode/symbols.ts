// Symbols from the C# language server through VS Code's built-in provider commands
// (`vscode.executeWorkspaceSymbolProvider`, `executeReferenceProvider`, `executeDefinitionProvider`,
// `prepareTypeHierarchy`). The language server answers nothing while it loads projects, and there
// is none without a C# extension: then the core's text index answers instead.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostFileSystem, SymbolInfo, SymbolKind, SymbolLocation, SymbolProvider } from '../../core/host';
import { CSharpTextIndex } from '../../core/tools/csharp/text-index';

const KIND_MAP = new Map<vscode.SymbolKind, SymbolKind>([
  [vscode.SymbolKind.Class, 'class'],
  [vscode.SymbolKind.Interface, 'interface'],
  [vscode.SymbolKind.Struct, 'struct'],
  [vscode.SymbolKind.Enum, 'enum'],
  [vscode.SymbolKind.Method, 'method'],
  [vscode.SymbolKind.Function, 'method'],
  [vscode.SymbolKind.Property, 'property'],
  [vscode.SymbolKind.Field, 'field'],
  [vscode.SymbolKind.Constant, 'field'],
  [vscode.SymbolKind.Event, 'event'],
  [vscode.SymbolKind.Namespace, 'namespace'],
  [vscode.SymbolKind.Constructor, 'constructor'],
]);

const DEFAULT_LIMIT = 100;
const MAX_DECLARATIONS_FOR_REFERENCES = 5;
const MAX_PREVIEW = 200;

export interface RelatedTypes {
  supertypes: SymbolInfo[];
  subtypes: SymbolInfo[];
}

export class VscodeSymbolProvider implements SymbolProvider {
  private readonly textIndex: CSharpTextIndex;

  constructor(
    private readonly workspaceRoot: string,
    fs: HostFileSystem,
    /** False when no C# extension is installed: every question goes to the text index. */
    private readonly languageServer: boolean,
  ) {
    this.textIndex = new CSharpTextIndex(fs, workspaceRoot);
  }

  async findSymbols(query: string, options: { kind?: SymbolKind; limit?: number; signal?: AbortSignal } = {}): Promise<SymbolInfo[]> {
    if (this.languageServer) {
      const found = (await this.workspaceSymbols(query)).filter((s) => !options.kind || s.kind === options.kind);
      if (found.length > 0) return found.slice(0, options.limit ?? DEFAULT_LIMIT);
    }
    return this.textIndex.findSymbols(query, options);
  }

  async findReferences(symbolName: string, options: { limit?: number; signal?: AbortSignal } = {}): Promise<SymbolLocation[]> {
    if (this.languageServer) {
      const found = await this.referencesFromServer(symbolName, options.limit ?? DEFAULT_LIMIT * 2);
      if (found.length > 0) return found;
    }
    return this.textIndex.findReferences(symbolName, options);
  }

  invalidate(relPaths: readonly string[]): void {
    this.textIndex.invalidate(relPaths);
  }

  /** Where a symbol is defined, following the server's go-to-definition from its declarations. */
  async findDefinitions(symbolName: string): Promise<SymbolLocation[]> {
    const declarations = await this.declarationsOf(symbolName);
    const locations: vscode.Location[] = [];
    for (const declaration of declarations) {
      const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        declaration.location.uri,
        declaration.location.range.start,
      );
      locations.push(...(found ?? []).map(toLocation));
    }
    return this.toSymbolLocations(locations, DEFAULT_LIMIT);
  }

  /** The base types and derived types of a type, from the server's type hierarchy. */
  async relatedTypes(typeName: string): Promise<RelatedTypes> {
    const related: RelatedTypes = { supertypes: [], subtypes: [] };
    for (const declaration of await this.declarationsOf(typeName)) {
      const items = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[]>(
        'vscode.prepareTypeHierarchy',
        declaration.location.uri,
        declaration.location.range.start,
      );
      for (const item of items ?? []) {
        const supertypes = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[]>('vscode.provideSupertypes', item);
        const subtypes = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[]>('vscode.provideSubtypes', item);
        related.supertypes.push(...(supertypes ?? []).map((t) => this.fromHierarchyItem(t)));
        related.subtypes.push(...(subtypes ?? []).map((t) => this.fromHierarchyItem(t)));
      }
    }
    return related;
  }

  private async workspaceSymbols(query: string): Promise<SymbolInfo[]> {
    const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
    return (symbols ?? [])
      .filter((s) => this.isInWorkspace(s.location.uri))
      .map((s) => ({
        name: s.name,
        kind: KIND_MAP.get(s.kind) ?? 'other',
        filePath: this.relative(s.location.uri),
        line: s.location.range.start.line + 1,
        column: s.location.range.start.character + 1,
        ...(s.containerName ? { containerName: s.containerName } : {}),
      }));
  }

  /** Declarations whose simple name is exactly the last part of `symbolName` (`Calc.Divide` → Divide). */
  private async declarationsOf(symbolName: string): Promise<vscode.SymbolInformation[]> {
    const simple = symbolName.split('.').pop() ?? symbolName;
    const container = symbolName.includes('.') ? symbolName.slice(0, symbolName.lastIndexOf('.')) : null;
    const symbols = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', simple)) ?? [];
    return symbols
      .filter((s) => s.name.replace(/\(.*$/, '') === simple && this.isInWorkspace(s.location.uri))
      .filter((s) => !container || (s.containerName ?? '').endsWith(container))
      .slice(0, MAX_DECLARATIONS_FOR_REFERENCES);
  }

  private async referencesFromServer(symbolName: string, limit: number): Promise<SymbolLocation[]> {
    const locations: vscode.Location[] = [];
    for (const declaration of await this.declarationsOf(symbolName)) {
      const found = await vscode.commands.executeCommand<vscode.Location[]>(
        'vscode.executeReferenceProvider',
        declaration.location.uri,
        declaration.location.range.start,
      );
      locations.push(...(found ?? []));
    }
    return this.toSymbolLocations(locations, limit);
  }

  private async toSymbolLocations(locations: readonly vscode.Location[], limit: number): Promise<SymbolLocation[]> {
    const seen = new Set<string>();
    const lines = new Map<string, string[]>();
    const result: SymbolLocation[] = [];
    for (const location of locations) {
      if (!this.isInWorkspace(location.uri)) continue;
      const key = `${location.uri.toString()}:${location.range.start.line}:${location.range.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!lines.has(location.uri.fsPath)) {
        const bytes = await vscode.workspace.fs.readFile(location.uri).then(
          (data) => data,
          () => new Uint8Array(),
        );
        lines.set(location.uri.fsPath, new TextDecoder().decode(bytes).split(/\r?\n/));
      }
      const preview = (lines.get(location.uri.fsPath)?.[location.range.start.line] ?? '').trim().slice(0, MAX_PREVIEW);
      result.push({ filePath: this.relative(location.uri), line: location.range.start.line + 1, column: location.range.start.character + 1, preview });
      if (result.length >= limit) break;
    }
    return result;
  }

  private fromHierarchyItem(item: vscode.TypeHierarchyItem): SymbolInfo {
    return {
      name: item.name,
      kind: KIND_MAP.get(item.kind) ?? 'other',
      filePath: this.relative(item.uri),
      line: item.selectionRange.start.line + 1,
      column: item.selectionRange.start.character + 1,
      ...(item.detail ? { containerName: item.detail } : {}),
    };
  }

  private isInWorkspace(uri: vscode.Uri): boolean {
    if (uri.scheme !== 'file') return false;
    const rel = path.relative(this.workspaceRoot, uri.fsPath);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }

  private relative(uri: vscode.Uri): string {
    return path.relative(this.workspaceRoot, uri.fsPath).split(path.sep).join('/');
  }
}

function toLocation(found: vscode.Location | vscode.LocationLink): vscode.Location {
  return 'targetUri' in found ? new vscode.Location(found.targetUri, found.targetSelectionRange ?? found.targetRange) : found;
}
