// find_symbols and find_references: thin tools over the Host's SymbolProvider, which is the C#
// language server inside VS Code and the text index (text-index.ts) in the CLI. Besides lookups by
// name they take `at` (go to definition of the symbol at a file position) and, for find_symbols,
// `hierarchy` (a type's base and derived types); the provider methods behind those are optional
// on the port, so a provider without them gets an error the model can act on. With the Roslyn
// engine (CLI, `ironbees mcp`) the answers are the compiler's: `at` on find_references finds that
// one symbol's references (findReferencesAt), and find_symbols also gives implementations and a
// file's outline. When the provider fell back to the text index it says so once (takeNotice).
// Every question carries the run's staged C# edits (queryOptions): the engine answers on the text
// the model read with read_file, not the disk's older text.

import { z } from 'zod';
import type { SourcePosition, SymbolDefinition, SymbolKind, SymbolLocation, SymbolQueryOptions } from '../host';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { optionalInt, optionalString } from './workspace/lenient';
import { resolveWorkspacePath } from '../workspace/paths';
import { definitionLines, referenceName, relationsText, symbolLine } from '../csharp/symbol-format';
import type { HierarchyDirection } from '../csharp/symbol-format';
import { AT_DESCRIPTION, formatPosition, resolvePosition } from './symbol-position';
import { stagedSources } from '../csharp/engine/code-checker';

const SYMBOL_KINDS = [
  'class',
  'interface',
  'struct',
  'enum',
  'record',
  'method',
  'property',
  'field',
  'event',
  'namespace',
  'constructor',
  'delegate',
  'other',
] as const satisfies readonly SymbolKind[];
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'struct', 'enum', 'record', 'delegate']);
const DIRECTIONS = ['base', 'derived', 'both'] as const satisfies readonly HierarchyDirection[];

const DEFAULT_SYMBOLS = 50;
const DEFAULT_REFERENCES = 100;
const MAX_RESULTS = 500;

/** Models send `true` for "yes, the hierarchy", and odd casing; both mean something clear. */
const lenientDirection = (v: unknown): unknown => {
  if (v === null || v === '' || v === false || v === 'false') return undefined;
  if (v === true || v === 'true') return 'both';
  return typeof v === 'string' ? v.trim().toLowerCase() : v;
};

const findSymbolsInput = z.object({
  query: optionalString(
    'Name or part of it; camel humps work ("CalcTe"); "Type.Member" narrows by container. With hierarchy: the exact type name',
  ),
  kind: z
    .preprocess(
      (v) => (v === null || v === '' ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
      z.enum(SYMBOL_KINDS).optional(),
    )
    .optional()
    .meta({ type: 'string', enum: [...SYMBOL_KINDS], description: 'Only symbols of this kind' }),
  limit: optionalInt(`At most this many symbols (default ${DEFAULT_SYMBOLS}, at most ${MAX_RESULTS})`),
  at: optionalString(`${AT_DESCRIPTION} Returns where that symbol is declared (go to definition) instead of searching by name.`),
  hierarchy: z
    .preprocess(lenientDirection, z.enum(DIRECTIONS).optional())
    .optional()
    .meta({
      type: 'string',
      enum: [...DIRECTIONS],
      description:
        'For a class, interface, struct or record (named by query, or at a position): list its direct base types, derived types (subclasses, implementations), or both',
    }),
  implementations: z
    .preprocess((v) => (v === 'true' ? true : v === 'false' || v === null || v === '' ? undefined : v), z.boolean().optional())
    .optional()
    .meta({
      type: 'boolean',
      description: 'With at: where the interface, abstract or virtual member (or type) there is implemented or overridden',
    }),
  file: optionalString('A C# file (workspace-relative): its outline, the types and members it declares in order, instead of a search'),
});
export type FindSymbolsInput = z.infer<typeof findSymbolsInput>;

export const findSymbolsTool: ToolDefinition<FindSymbolsInput> = {
  name: 'find_symbols',
  description:
    'Find C# declarations (types, methods, properties, fields, ...) by name across the workspace; exact matches come first. ' +
    'Returns kind, name, file:line:column and the containing type or namespace. ' +
    'Use `at` to jump from a use in the code to its declaration, and `hierarchy` to see what a type inherits or implements and what derives from it ' +
    '(before changing a base class or an interface).',
  input: findSymbolsInput,
  readonly: true,
  // The C# engine evaluates the projects' MSBuild files to load them.
  runsRepositoryCode: true,
  timeoutMs: 60_000,
  execute: findSymbols,
};

async function findSymbols(input: FindSymbolsInput, ctx: ToolContext): Promise<ToolOutcome> {
  return withNotice(await answerFindSymbols(input, ctx), ctx);
}

async function answerFindSymbols(input: FindSymbolsInput, ctx: ToolContext): Promise<ToolOutcome> {
  const query = input.query ?? '';
  if (input.file !== undefined) return outlineOf(input.file, ctx);
  if (input.at !== undefined && input.implementations) return implementationsAt(input.at, query, ctx);
  if (input.at !== undefined) return symbolAt(input.at, query, input.hierarchy, ctx);
  if (input.hierarchy) return hierarchyOf(query, input.hierarchy, ctx);
  if (query.trim() === '' && !input.kind) {
    return {
      ok: false,
      error: 'query is empty; give a name (or part of one), a kind to list every symbol of that kind, or at: "path:line:column".',
    };
  }
  const limit = clampLimit(input.limit, DEFAULT_SYMBOLS);
  // One extra tells us whether the list was cut.
  const symbols = await ctx.host.symbols.findSymbols(query, { ...(await queryOptions(ctx)), kind: input.kind, limit: limit + 1 });
  const kind = input.kind ? `${input.kind} ` : '';
  const what = `${kind}symbol(s) matching ${JSON.stringify(query)}`;
  if (symbols.length === 0) {
    return {
      ok: true,
      content: `No ${kind}symbols matching ${JSON.stringify(query)}. Try a shorter part of the name, another kind, or search_text.`,
    };
  }
  const lines = symbols.slice(0, limit).map(symbolLine);
  const more =
    symbols.length > limit ? `\n[More matches not shown; narrow the query or kind, or raise limit (at most ${MAX_RESULTS}).]` : '';
  return { ok: true, content: `${Math.min(symbols.length, limit)} ${what}:\n${lines.join('\n')}${more}` };
}

async function symbolAt(at: string, name: string, direction: HierarchyDirection | undefined, ctx: ToolContext): Promise<ToolOutcome> {
  const found = await definitionsAt(at, name, ctx);
  if ('outcome' in found) return found.outcome;
  const { where, definitions } = found;
  if (!direction)
    return { ok: true, content: `The symbol at ${where} (${definitions[0].name}) is declared at:\n${definitionLines(definitions)}` };
  const types = definitions.filter((d) => TYPE_KINDS.has(d.kind));
  if (types.length === 0) {
    return {
      ok: false,
      error: `The symbol at ${where} is ${definitions[0].kind} ${definitions[0].name}, not a type; hierarchy needs a class, interface, struct or record.`,
    };
  }
  return hierarchyOf(referenceName(types[0]), direction, ctx);
}

async function hierarchyOf(typeName: string, direction: HierarchyDirection, ctx: ToolContext): Promise<ToolOutcome> {
  const provider = ctx.host.symbols;
  if (!provider.relatedTypes)
    return { ok: false, error: 'Type hierarchy is not available in this host; use search_text for ": TypeName" instead.' };
  if (typeName.trim() === '')
    return { ok: false, error: 'hierarchy needs a type: give its name in query (e.g. "Shape"), or at: "path:line:column".' };
  const relations = await provider.relatedTypes(typeName.trim(), await queryOptions(ctx));
  if (relations.length === 0) {
    return {
      ok: true,
      content: `No class, interface, struct or record named ${JSON.stringify(typeName)}. Check the exact name with find_symbols (hierarchy needs the whole name).`,
    };
  }
  return { ok: true, content: relationsText(relations, direction) };
}

const findReferencesInput = z
  .object({
    symbol: optionalString('The symbol name ("Add", or "Calculator.Add"); required unless at is given'),
    limit: optionalInt(`At most this many places (default ${DEFAULT_REFERENCES}, at most ${MAX_RESULTS})`),
    at: optionalString(
      `${AT_DESCRIPTION} Finds the references of the symbol declared there (resolved by go to definition), not of everything with its name.`,
    ),
  })
  .superRefine((input, issue) => {
    if ((input.symbol ?? '').trim() === '' && input.at === undefined) {
      issue.addIssue({
        code: 'custom',
        path: ['symbol'],
        message: 'symbol is required: the name to look for, e.g. "Add" or "Calculator.Add" (or give at: "path:line:column")',
      });
    }
  });
export type FindReferencesInput = z.infer<typeof findReferencesInput>;

export const findReferencesTool: ToolDefinition<FindReferencesInput> = {
  name: 'find_references',
  description:
    'Find where a C# symbol is used (declaration included): file:line:column with the source line. ' +
    'By name, other symbols with the same name may appear; give `at` (a place where the symbol is used or declared) to ask about that one symbol.',
  input: findReferencesInput,
  readonly: true,
  runsRepositoryCode: true,
  timeoutMs: 60_000,
  execute: findReferences,
};

async function findReferences(input: FindReferencesInput, ctx: ToolContext): Promise<ToolOutcome> {
  return withNotice(await answerFindReferences(input, ctx), ctx);
}

async function answerFindReferences(input: FindReferencesInput, ctx: ToolContext): Promise<ToolOutcome> {
  const limit = clampLimit(input.limit, DEFAULT_REFERENCES);
  let names = [(input.symbol ?? '').trim()];
  let about = JSON.stringify(names[0]);
  let places: SymbolLocation[];
  if (input.at !== undefined) {
    const found = await definitionsAt(input.at, input.symbol, ctx);
    if ('outcome' in found) return found.outcome;
    names = [...new Set(found.definitions.map(referenceName))];
    about = `${names.join(', ')} (the symbol at ${found.where})`;
    const exact = ctx.host.symbols.findReferencesAt;
    places = exact
      ? await exact.call(ctx.host.symbols, found.position, { ...(await queryOptions(ctx)), limit: limit + 1 })
      : await referencesOf(names, limit + 1, ctx);
  } else {
    places = await referencesOf(names, limit + 1, ctx);
  }
  if (places.length === 0) {
    return { ok: true, content: `No references to ${about} found. Check the spelling with find_symbols, or use search_text.` };
  }
  const lines = places.slice(0, limit).map((p) => `${p.filePath}:${p.line}:${p.column}: ${p.preview}`);
  const more = places.length > limit ? `\n[More references not shown; raise limit (at most ${MAX_RESULTS}).]` : '';
  return { ok: true, content: `${Math.min(places.length, limit)} reference(s) to ${about}:\n${lines.join('\n')}${more}` };
}

/** References of each name, without the places two names share (an overload's declarations). */
async function referencesOf(names: readonly string[], limit: number, ctx: ToolContext): Promise<SymbolLocation[]> {
  const seen = new Set<string>();
  const places: SymbolLocation[] = [];
  const options = await queryOptions(ctx);
  for (const name of names) {
    for (const place of await ctx.host.symbols.findReferences(name, { ...options, limit })) {
      const key = `${place.filePath}:${place.line}:${place.column}`;
      if (seen.has(key)) continue;
      seen.add(key);
      places.push(place);
    }
  }
  return places.slice(0, limit);
}

type DefinitionsAt = { where: string; position: SourcePosition; definitions: SymbolDefinition[] } | { outcome: ToolOutcome };

async function definitionsAt(at: string, name: string | undefined, ctx: ToolContext): Promise<DefinitionsAt> {
  const provider = ctx.host.symbols;
  if (!provider.findDefinitions)
    return { outcome: { ok: false, error: 'Looking up the symbol at a position is not available in this host; search by name instead.' } };
  const position = await resolvePosition(at, name, ctx);
  if (typeof position === 'string') return { outcome: { ok: false, error: position } };
  const where = formatPosition(position);
  const definitions = await provider.findDefinitions(position, await queryOptions(ctx));
  if (definitions.length === 0) {
    return {
      outcome: {
        ok: true,
        content:
          `No declaration in the workspace for the symbol at ${where}: there may be no identifier at that column, or it is a local, ` +
          'a keyword, or declared in the framework or a package. Check the column with read_file, or search by name.',
      },
    };
  }
  return { where, position, definitions };
}

async function implementationsAt(at: string, name: string, ctx: ToolContext): Promise<ToolOutcome> {
  const provider = ctx.host.symbols;
  if (!provider.findImplementations)
    return { ok: false, error: 'Implementations are not available in this host; use hierarchy: "derived" on the type instead.' };
  const position = await resolvePosition(at, name, ctx);
  if (typeof position === 'string') return { ok: false, error: position };
  const found = await provider.findImplementations(position, await queryOptions(ctx));
  const where = formatPosition(position);
  if (found.length === 0) return { ok: true, content: `No implementations or overrides in the workspace for the symbol at ${where}.` };
  return { ok: true, content: `${found.length} implementation(s) of the symbol at ${where}:\n${definitionLines(found)}` };
}

async function outlineOf(file: string, ctx: ToolContext): Promise<ToolOutcome> {
  const provider = ctx.host.symbols;
  if (!provider.outline) return { ok: false, error: 'A file outline is not available in this host; use read_file instead.' };
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, file);
  // Through the overlay: a file the coder created (staged, not written) has an outline too.
  if ((await ctx.overlay.read(rel)) === null) return { ok: false, error: `${rel} does not exist; check the path with list_files.` };
  const symbols = await provider.outline(rel, await queryOptions(ctx));
  if (symbols.length === 0) return { ok: true, content: `${rel} declares no types or members.` };
  return { ok: true, content: `Outline of ${rel} (${symbols.length} declaration(s)):\n${symbols.map(symbolLine).join('\n')}` };
}

/**
 * The call's signal and the staged C# edits: the model read staged text (read_file shows it), so the
 * provider is asked about that text, not the disk's.
 */
async function queryOptions(ctx: ToolContext): Promise<SymbolQueryOptions> {
  const { files } = await stagedSources(ctx.overlay);
  return files.length > 0 ? { signal: ctx.signal, staged: files } : { signal: ctx.signal };
}

/** The provider's one-time note (e.g. that the text index answers, and why) ahead of the answer. */
function withNotice(outcome: ToolOutcome, ctx: ToolContext): ToolOutcome {
  const notice = ctx.host.symbols.takeNotice?.();
  if (!notice || !outcome.ok) return outcome;
  return { ...outcome, content: `${notice}\n${outcome.content}` };
}

function clampLimit(limit: number | undefined, fallback: number): number {
  return Math.min(Math.max(limit ?? fallback, 1), MAX_RESULTS);
}
