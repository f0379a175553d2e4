// The SymbolProvider of hosts without a language server (CLI, `ironbees mcp`, VS Code without a C#
// extension): the Roslyn engine's compiler-exact answers, and the text index when the engine
// cannot answer (not built, no solution to open, MSBuild failed, crashed or hung past its
// restarts). The switch is said once, with why, to the log and to the model (takeNotice).
// Questions carry the coder's staged edits (options.staged): the engine answers on that text.
// Every place the engine names passes workspace containment before the model sees it: a linked
// file, a generated or metadata path outside the workspace is left out (a related type declared
// there keeps its name, without the place).

import * as path from 'node:path';
import type {
  HostFileSystem,
  Logger,
  SourcePosition,
  StagedText,
  SymbolDefinition,
  SymbolInfo,
  SymbolKind,
  SymbolLocation,
  SymbolProvider,
  SymbolQueryOptions,
  TypeRelations,
} from '../../host';
import { parseDeclarations } from '../declarations';
import { referenceName } from '../symbol-format';
import type { CSharpTextIndex } from '../text-index';
import { EngineRequestError, EngineUnavailableError } from './errors';
import type { RoslynEngine } from './roslyn-engine';
import { EngineAnswerFilter } from './answer-filter';

const FALLBACK = Symbol('fallback');
const decoder = new TextDecoder('utf-8');

/** What the provider asks of the engine (a fake answers in unit tests). */
export type EngineQueries = Pick<RoslynEngine, 'query' | 'noteChanged'>;

export class EngineSymbolProvider implements SymbolProvider {
  private notice: string | undefined;
  private fellBack = false;
  private readonly inside: EngineAnswerFilter;

  constructor(
    private readonly engine: EngineQueries,
    private readonly textIndex: CSharpTextIndex,
    private readonly fs: HostFileSystem,
    private readonly root: string,
    private readonly logger?: Logger,
  ) {
    this.inside = new EngineAnswerFilter(root);
  }

  async findSymbols(query: string, options: SymbolQueryOptions & { kind?: SymbolKind; limit?: number } = {}): Promise<SymbolInfo[]> {
    const found = await this.ask<SymbolInfo[]>('symbols', { query, kind: options.kind, limit: options.limit ?? 100 }, options);
    return found === FALLBACK ? this.textIndex.findSymbols(query, options) : this.inside.places(found);
  }

  async findReferences(symbolName: string, options: SymbolQueryOptions & { limit?: number } = {}): Promise<SymbolLocation[]> {
    const found = await this.ask<SymbolLocation[]>('references', { name: symbolName, limit: options.limit ?? 200 }, options);
    return found === FALLBACK ? this.textIndex.findReferences(symbolName, options) : this.inside.places(found);
  }

  async findReferencesAt(at: SourcePosition, options: SymbolQueryOptions & { limit?: number } = {}): Promise<SymbolLocation[]> {
    const found = await this.ask<SymbolLocation[]>('references', { at, limit: options.limit ?? 200 }, options);
    if (found !== FALLBACK) return this.inside.places(found);
    // The text index knows names only: the references of every declaration the name may mean.
    const names = [...new Set((await this.textIndex.findDefinitions(at, options)).map(referenceName))];
    const places = (await Promise.all(names.map((name) => this.textIndex.findReferences(name, options)))).flat();
    return [...new Map(places.map((p) => [`${p.filePath}:${p.line}:${p.column}`, p])).values()];
  }

  async findDefinitions(at: SourcePosition, options: SymbolQueryOptions = {}): Promise<SymbolDefinition[]> {
    const found = await this.ask<SymbolDefinition[]>('definitions', { at }, options);
    return found === FALLBACK ? this.textIndex.findDefinitions(at, options) : this.inside.places(found);
  }

  async relatedTypes(typeName: string, options: SymbolQueryOptions = {}): Promise<TypeRelations[]> {
    const found = await this.ask<TypeRelations[]>('relatedTypes', { typeName }, options);
    return found === FALLBACK ? this.textIndex.relatedTypes(typeName, options) : this.inside.relations(found);
  }

  async findImplementations(at: SourcePosition, options: SymbolQueryOptions = {}): Promise<SymbolDefinition[]> {
    const found = await this.ask<SymbolDefinition[]>('implementations', { at }, options);
    if (found !== FALLBACK) return this.inside.places(found);
    // Without the compiler: the derived types of the type declared there (members have no answer).
    const types = (await this.textIndex.findDefinitions(at, options)).filter((d) =>
      ['class', 'interface', 'struct', 'record'].includes(d.kind),
    );
    const relations = types.length > 0 ? await this.textIndex.relatedTypes(referenceName(types[0]), options) : [];
    return relations
      .flatMap((r) => r.subtypes)
      .flatMap((t) =>
        t.filePath === undefined
          ? []
          : [
              {
                name: t.name,
                kind: t.kind,
                filePath: t.filePath,
                line: t.line ?? 1,
                column: t.column ?? 1,
                containerName: t.containerName,
                preview: '',
              },
            ],
      );
  }

  async outline(relPath: string, options: SymbolQueryOptions = {}): Promise<SymbolInfo[]> {
    const found = await this.ask<SymbolInfo[]>('outline', { filePath: relPath }, options);
    if (found !== FALLBACK) return this.inside.places(found);
    const text = await this.textOf(relPath, options.staged);
    if (text === null) return [];
    return parseDeclarations(text).map((d) => ({
      name: d.name,
      kind: d.kind,
      filePath: relPath,
      line: d.line,
      column: d.column,
      ...(d.containerName ? { containerName: d.containerName } : {}),
    }));
  }

  invalidate(relPaths: readonly string[]): void {
    this.textIndex.invalidate(relPaths);
    this.engine.noteChanged(relPaths);
  }

  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  /** The staged text of a file when it is staged, else the disk's (null: neither has it). */
  private async textOf(relPath: string, staged: readonly StagedText[] | undefined): Promise<string | null> {
    const edit = staged?.find((f) => f.path === relPath);
    if (edit) return edit.text;
    const bytes = await this.fs.readFile(path.join(this.root, relPath));
    return bytes === null ? null : decoder.decode(bytes).replace(/^\uFEFF/, '');
  }

  /** The engine's answer, or FALLBACK when the text index must answer instead. */
  private async ask<T>(method: string, params: object, options: SymbolQueryOptions): Promise<T | typeof FALLBACK> {
    try {
      const staged = options.staged && options.staged.length > 0 ? { staged: options.staged } : {};
      return await this.engine.query<T>(method, { ...params, ...staged }, options.signal);
    } catch (error) {
      if (error instanceof EngineUnavailableError) {
        this.noteFallback(error.message);
        return FALLBACK;
      }
      // A question the engine cannot place (a file outside every project): the index may still know it.
      if (error instanceof EngineRequestError) {
        this.logger?.debug(`C# engine could not answer ${method}: ${error.message}; the text index answers`);
        return FALLBACK;
      }
      throw error;
    }
  }

  private noteFallback(why: string): void {
    if (this.fellBack) return;
    this.fellBack = true;
    const text = `C# symbols come from the text index (names only, no types), because ${why}.`;
    this.notice = `[${text} Same-named symbols may be mixed up; check with read_file.]`;
    this.logger?.warn(text);
  }
}
