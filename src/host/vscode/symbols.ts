// Symbols from the C# language server through VS Code's built-in provider commands
// (`vscode.executeWorkspaceSymbolProvider`, `executeReferenceProvider`, `executeDefinitionProvider`,
// `prepareTypeHierarchy`). The language server answers nothing while it loads projects, and there
// is none without a C# extension: then the core's text index answers instead, and the log says so
// once (a server that is still loading answers later, so this is not an error).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type {
  HostFileSystem,
  Logger,
  RelatedType,
  SourcePosition,
  SymbolDefinition,
  SymbolInfo,
  SymbolKind,
  SymbolLocation,
  SymbolProvider,
  TypeRelations,
} from '../../core/host';
import { identifierAt } from '../../core/csharp/position';
import { CSharpTextIndex } from '../../core/csharp/text-index';
import { isInsideWorkspace } from '../../core/workspace/paths';

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
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'struct', 'enum']);

const DEFAULT_LIMIT = 100;
const MAX_DECLARATIONS_FOR_REFERENCES = 5;
const MAX_PREVIEW = 200;

type Lines = Map<string, string[]>;

export class VscodeSymbolProvider implements SymbolProvider {
  private readonly textIndex: CSharpTextIndex;
  private fallbackLogged = false;

  constructor(
    private readonly workspaceRoot: string,
    fs: HostFileSystem,
    /** False when no C# extension is installed: every question goes to the text index. */
    private readonly languageServer: boolean,
    private readonly logger?: Logger,
  ) {
    this.textIndex = new CSharpTextIndex(fs, workspaceRoot);
  }

  async findSymbols(query: string, options: { kind?: SymbolKind; limit?: number; signal?: AbortSignal } = {}): Promise<SymbolInfo[]> {
    if (this.languageServer) {
      const found = (await this.workspaceSymbols(query)).filter((s) => !options.kind || s.kind === options.kind);
      if (found.length > 0) return found.slice(0, options.limit ?? DEFAULT_LIMIT);
      this.noteFallback();
    }
    return this.textIndex.findSymbols(query, options);
  }

  async findReferences(symbolName: string, options: { limit?: number; signal?: AbortSignal } = {}): Promise<SymbolLocation[]> {
    if (this.languageServer) {
      const found = await this.referencesFromServer(symbolName, options.limit ?? DEFAULT_LIMIT * 2);
      if (found.length > 0) return found;
      this.noteFallback();
    }
    return this.textIndex.findReferences(symbolName, options);
  }

  invalidate(relPaths: readonly string[]): void {
    this.textIndex.invalidate(relPaths);
  }

  /** Go to definition from a position; a server answer that lies outside the workspace (metadata) is still an answer. */
  async findDefinitions(at: SourcePosition, options: { signal?: AbortSignal } = {}): Promise<SymbolDefinition[]> {
    if (this.languageServer) {
      const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
        'vscode.executeDefinitionProvider',
        vscode.Uri.file(path.join(this.workspaceRoot, at.filePath)),
        new vscode.Position(at.line - 1, Math.max(0, at.column - 1)),
      );
      if (found && found.length > 0) return this.describe(found.map(toLocation).filter((l) => this.isInWorkspace(l.uri)));
      this.noteFallback();
    }
    return this.textIndex.findDefinitions(at, options);
  }

  /** The base types and derived types of a type, from the server's type hierarchy. */
  async relatedTypes(typeName: string, options: { signal?: AbortSignal } = {}): Promise<TypeRelations[]> {
    if (this.languageServer) {
      const related = await this.hierarchyFromServer(typeName, options.signal);
      if (related.length > 0) return related;
      this.noteFallback();
    }
    return this.textIndex.relatedTypes(typeName, options);
  }

  private async hierarchyFromServer(typeName: string, signal: AbortSignal | undefined): Promise<TypeRelations[]> {
    const seen = new Set<string>();
    const related: TypeRelations[] = [];
    for (const declaration of await this.declarationsOf(typeName)) {
      if (!TYPE_KINDS.has(KIND_MAP.get(declaration.kind) ?? 'other')) continue;
      signal?.throwIfAborted();
      const items = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(
        'vscode.prepareTypeHierarchy',
        declaration.location.uri,
        declaration.location.range.start,
      );
      for (const item of items ?? []) {
        // Partial types: every declaration leads to the same item.
        const key = `${item.uri.toString()}:${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
        if (seen.has(key) || !this.isInWorkspace(item.uri)) continue;
        seen.add(key);
        const supertypes = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>('vscode.provideSupertypes', item);
        const subtypes = await vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>('vscode.provideSubtypes', item);
        related.push({
          type: {
            ...this.relatedFromItem(item),
            filePath: this.relative(item.uri),
            line: item.selectionRange.start.line + 1,
            column: item.selectionRange.start.character + 1,
          },
          supertypes: (supertypes ?? []).map((t) => this.relatedFromItem(t)),
          subtypes: (subtypes ?? []).map((t) => this.relatedFromItem(t)),
        });
      }
    }
    return related;
  }

  private async workspaceSymbols(query: string): Promise<SymbolInfo[]> {
    const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
      'vscode.executeWorkspaceSymbolProvider',
      query,
    );
    return (symbols ?? []).filter((s) => this.isInWorkspace(s.location.uri)).map((s) => this.fromSymbolInformation(s));
  }

  /** Declarations whose simple name is exactly the last part of `symbolName` (`Calc.Divide` → Divide). */
  private async declarationsOf(symbolName: string): Promise<vscode.SymbolInformation[]> {
    const simple = symbolName.split('.').pop() ?? symbolName;
    const container = symbolName.includes('.') ? symbolName.slice(0, symbolName.lastIndexOf('.')) : null;
    const symbols =
      (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', simple)) ?? [];
    return symbols
      .filter((s) => s.name.replace(/\(.*$/, '') === simple && this.isInWorkspace(s.location.uri))
      .filter((s) => !container || (s.containerName ?? '').endsWith(container))
      .slice(0, MAX_DECLARATIONS_FOR_REFERENCES);
  }

  private async referencesFromServer(symbolName: string, limit: number): Promise<SymbolLocation[]> {
    const locations: vscode.Location[] = [];
    for (const declaration of await this.declarationsOf(symbolName)) {
      const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>(
        'vscode.executeReferenceProvider',
        declaration.location.uri,
        declaration.location.range.start,
      );
      locations.push(...(found ?? []));
    }
    return this.toSymbolLocations(locations, limit);
  }

  /**
   * Definition locations as symbols: the name is the identifier at the location; kind and
   * container come from the workspace symbol declared there, when the server lists one.
   */
  private async describe(locations: readonly vscode.Location[]): Promise<SymbolDefinition[]> {
    const lines: Lines = new Map();
    const described: SymbolDefinition[] = [];
    for (const place of await this.toSymbolLocations(locations, DEFAULT_LIMIT, lines)) {
      const line = lines.get(path.join(this.workspaceRoot, place.filePath))?.[place.line - 1] ?? '';
      const name = identifierAt(line, place.column)?.name ?? '(unnamed)';
      const declared = (await this.workspaceSymbols(name)).find(
        (s) => s.filePath === place.filePath && s.line === place.line && s.name.replace(/\(.*$/, '') === name,
      );
      described.push({
        name,
        kind: declared?.kind ?? 'other',
        ...(declared?.containerName ? { containerName: declared.containerName } : {}),
        ...place,
      });
    }
    return described;
  }

  private async toSymbolLocations(
    locations: readonly vscode.Location[],
    limit: number,
    lines: Lines = new Map(),
  ): Promise<SymbolLocation[]> {
    const seen = new Set<string>();
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
      result.push({
        filePath: this.relative(location.uri),
        line: location.range.start.line + 1,
        column: location.range.start.character + 1,
        preview,
      });
      if (result.length >= limit) break;
    }
    return result;
  }

  private fromSymbolInformation(s: vscode.SymbolInformation): SymbolInfo {
    return {
      name: s.name,
      kind: KIND_MAP.get(s.kind) ?? 'other',
      filePath: this.relative(s.location.uri),
      line: s.location.range.start.line + 1,
      column: s.location.range.start.character + 1,
      ...(s.containerName ? { containerName: s.containerName } : {}),
    };
  }

  /** A hierarchy item; types from metadata (the framework, packages) have no workspace position. */
  private relatedFromItem(item: vscode.TypeHierarchyItem): RelatedType {
    const where = this.isInWorkspace(item.uri)
      ? { filePath: this.relative(item.uri), line: item.selectionRange.start.line + 1, column: item.selectionRange.start.character + 1 }
      : {};
    return { name: item.name, kind: KIND_MAP.get(item.kind) ?? 'other', ...where, ...(item.detail ? { containerName: item.detail } : {}) };
  }

  private noteFallback(): void {
    if (this.fallbackLogged) return;
    this.fallbackLogged = true;
    this.logger?.info(
      "The C# language server gave no symbol answer (still loading its projects, or no C# provider): Ironbees' own C# index answers meanwhile.",
    );
  }

  /** The one containment check: a file reached through a link leading out (or into .git/.ironbees) is not the workspace's. */
  private isInWorkspace(uri: vscode.Uri): boolean {
    if (uri.scheme !== 'file') return false;
    const rel = path.relative(this.workspaceRoot, uri.fsPath);
    return rel !== '' && isInsideWorkspace(this.workspaceRoot, rel);
  }

  private relative(uri: vscode.Uri): string {
    return path.relative(this.workspaceRoot, uri.fsPath).split(path.sep).join('/');
  }
}

function toLocation(found: vscode.Location | vscode.LocationLink): vscode.Location {
  return 'targetUri' in found ? new vscode.Location(found.targetUri, found.targetSelectionRange ?? found.targetRange) : found;
}
