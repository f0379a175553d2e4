// A SymbolProvider for hosts without a language server (the CLI, tests): declarations and
// references found by scanning .cs files as text. Built lazily on the first query, kept in
// memory, and re-read per file after `invalidate` (the run calls it after applying edits).

import * as path from 'node:path';
import type {
  HostFileSystem,
  SourcePosition,
  SymbolDefinition,
  SymbolInfo,
  SymbolKind,
  SymbolLocation,
  SymbolProvider,
  TypeRelations,
} from '../host';
import { filterInsideWorkspace } from '../workspace/paths';
import { declarationsInCode } from './declarations';
import { definitionsOf, typeRelations, withoutBases } from './hierarchy';
import type { IndexedSymbol } from './hierarchy';
import { blankNonCode } from './lexer';
import { identifierAt } from './position';
import { compareMatches, matchRank } from './symbol-match';

interface IndexedFile {
  symbols: IndexedSymbol[];
  /** Source lines, for previews. */
  lines: string[];
  /** The same lines with comments and literals blanked, for the reference search. */
  codeLines: string[];
}

export interface CSharpTextIndexOptions {
  /** Bounds the walk of the workspace. */
  maxFiles?: number;
  /** Larger .cs files are generated code; skipping them keeps the index quick. */
  maxFileBytes?: number;
}

const DEFAULT_SYMBOL_LIMIT = 100;
const DEFAULT_REFERENCE_LIMIT = 200;
const MAX_PREVIEW = 200;
const decoder = new TextDecoder('utf-8');

export class CSharpTextIndex implements SymbolProvider {
  private readonly files = new Map<string, IndexedFile>();
  private listing: string[] | null = null;
  private readonly maxFiles: number;
  private readonly maxFileBytes: number;

  constructor(
    private readonly fs: HostFileSystem,
    private readonly root: string,
    options: CSharpTextIndexOptions = {},
  ) {
    this.maxFiles = options.maxFiles ?? 50_000;
    this.maxFileBytes = options.maxFileBytes ?? 2_000_000;
  }

  async findSymbols(query: string, options: { kind?: SymbolKind; limit?: number; signal?: AbortSignal } = {}): Promise<SymbolInfo[]> {
    const matches: Array<{ rank: number; symbol: SymbolInfo }> = [];
    for (const [, file] of await this.allFiles(options.signal)) {
      for (const symbol of file.symbols) {
        if (options.kind && symbol.kind !== options.kind) continue;
        const rank = matchRank(symbol, query);
        if (rank !== null) matches.push({ rank, symbol });
      }
    }
    return matches
      .sort(compareMatches)
      .slice(0, options.limit ?? DEFAULT_SYMBOL_LIMIT)
      .map((m) => withoutBases(m.symbol));
  }

  /** The declarations the identifier at `at` may refer to, matched by name (see hierarchy.ts). */
  async findDefinitions(at: SourcePosition, options: { signal?: AbortSignal } = {}): Promise<SymbolDefinition[]> {
    const files = await this.allFiles(options.signal);
    const file = files.find(([rel]) => rel === at.filePath)?.[1];
    const ident = identifierAt(file?.codeLines[at.line - 1] ?? '', at.column);
    if (!ident) return [];
    const all = files.flatMap(([, f]) => f.symbols);
    const byPath = new Map(files);
    return definitionsOf(ident, at, all).map((symbol) => ({
      ...symbol,
      preview: preview(byPath.get(symbol.filePath)?.lines[symbol.line - 1] ?? ''),
    }));
  }

  /** Base types from the `: Base, IFoo` lists of the declarations; derived types are those listing this one. */
  async relatedTypes(typeName: string, options: { signal?: AbortSignal } = {}): Promise<TypeRelations[]> {
    const files = await this.allFiles(options.signal);
    return typeRelations(
      typeName,
      files.flatMap(([, f]) => f.symbols),
    );
  }

  /** Whole-word occurrences of the name (the last part of a dotted name) in code, not in comments or strings. */
  async findReferences(symbolName: string, options: { limit?: number; signal?: AbortSignal } = {}): Promise<SymbolLocation[]> {
    const name = symbolName.trim().split('.').pop()?.replace(/^@/, '') ?? '';
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return [];
    const limit = options.limit ?? DEFAULT_REFERENCE_LIMIT;
    const word = new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, 'gu');
    const found: SymbolLocation[] = [];
    for (const [filePath, file] of await this.allFiles(options.signal)) {
      for (let i = 0; i < file.codeLines.length; i++) {
        if (!file.codeLines[i].includes(name)) continue;
        for (const match of file.codeLines[i].matchAll(word)) {
          found.push({ filePath, line: i + 1, column: match.index + 1, preview: preview(file.lines[i]) });
          if (found.length >= limit) return found;
        }
      }
    }
    return found;
  }

  invalidate(relPaths: readonly string[]): void {
    for (const rel of relPaths) this.files.delete(rel.replace(/\\/g, '/'));
    // A path we never saw may be a new file: list the workspace again on the next query.
    this.listing = null;
  }

  /** Every indexed .cs file with its workspace-relative path, in path order. */
  private async allFiles(signal: AbortSignal | undefined): Promise<Array<[string, IndexedFile]>> {
    if (this.listing === null) {
      const all = await this.fs.listFiles(this.root, { maxFiles: this.maxFiles });
      // The one containment check: a .cs symlink that leads outside the workspace is never indexed.
      this.listing = filterInsideWorkspace(
        this.root,
        all.filter((f) => f.toLowerCase().endsWith('.cs')),
      ).sort();
      const listed = new Set(this.listing);
      for (const known of [...this.files.keys()]) if (!listed.has(known)) this.files.delete(known);
    }
    const result: Array<[string, IndexedFile]> = [];
    for (const rel of this.listing) {
      signal?.throwIfAborted();
      let file = this.files.get(rel);
      if (!file) {
        file = await this.indexFile(rel);
        this.files.set(rel, file);
      }
      result.push([rel, file]);
    }
    return result;
  }

  private async indexFile(rel: string): Promise<IndexedFile> {
    const bytes = await this.fs.readFile(path.join(this.root, rel));
    if (bytes === null || bytes.length > this.maxFileBytes) return { symbols: [], lines: [], codeLines: [] };
    const source = decoder.decode(bytes).replace(/^\uFEFF/, '');
    const code = blankNonCode(source);
    const symbols = declarationsInCode(code).map((d) => ({ ...d, filePath: rel }));
    return { symbols, lines: source.split(/\r?\n/), codeLines: code.split(/\r?\n/) };
  }
}

function preview(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_PREVIEW ? `${trimmed.slice(0, MAX_PREVIEW)}…` : trimmed;
}
