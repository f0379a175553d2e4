// find_symbols and find_references: thin tools over the Host's SymbolProvider, which is the C#
// language server inside VS Code and the text index (text-index.ts) in the CLI.

import { z } from 'zod';
import type { SymbolKind } from '../../host';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { optionalInt, requiredText } from '../workspace/lenient';

const SYMBOL_KINDS = [
  'class', 'interface', 'struct', 'enum', 'record', 'method', 'property', 'field', 'event', 'namespace', 'constructor', 'delegate', 'other',
] as const satisfies readonly SymbolKind[];

const DEFAULT_SYMBOLS = 50;
const DEFAULT_REFERENCES = 100;
const MAX_RESULTS = 500;

const findSymbolsInput = z.object({
  query: z.string({ error: 'query is required: a name or part of one (it may be "" when kind is given)' }).describe('Name or part of it; camel humps work ("CalcTe"); "Type.Member" narrows by container'),
  kind: z
    .preprocess((v) => (v === null || v === '' ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(SYMBOL_KINDS).optional())
    .optional()
    .meta({ type: 'string', enum: [...SYMBOL_KINDS], description: 'Only symbols of this kind' }),
  limit: optionalInt(`At most this many symbols (default ${DEFAULT_SYMBOLS}, at most ${MAX_RESULTS})`),
});
export type FindSymbolsInput = z.infer<typeof findSymbolsInput>;

export const findSymbolsTool: ToolDefinition<FindSymbolsInput> = {
  name: 'find_symbols',
  description:
    'Find C# declarations (types, methods, properties, fields, ...) by name across the workspace; exact matches come first. ' +
    'Returns kind, name, file:line:column and the containing type or namespace.',
  input: findSymbolsInput,
  readonly: true,
  timeoutMs: 60_000,
  execute: findSymbols,
};

async function findSymbols(input: FindSymbolsInput, ctx: ToolContext): Promise<ToolOutcome> {
  if (input.query.trim() === '' && !input.kind) {
    return { ok: false, error: 'query is empty; give a name (or part of one), or a kind to list every symbol of that kind.' };
  }
  const limit = clampLimit(input.limit, DEFAULT_SYMBOLS);
  // One extra tells us whether the list was cut.
  const symbols = await ctx.host.symbols.findSymbols(input.query, { kind: input.kind, limit: limit + 1, signal: ctx.signal });
  const kind = input.kind ? `${input.kind} ` : '';
  const what = `${kind}symbol(s) matching ${JSON.stringify(input.query)}`;
  if (symbols.length === 0) {
    return { ok: true, content: `No ${kind}symbols matching ${JSON.stringify(input.query)}. Try a shorter part of the name, another kind, or search_text.` };
  }
  const lines = symbols.slice(0, limit).map((s) => `${s.kind} ${s.name} — ${s.filePath}:${s.line}:${s.column}${s.containerName ? ` (in ${s.containerName})` : ''}`);
  const more = symbols.length > limit ? `\n[More matches not shown; narrow the query or kind, or raise limit (at most ${MAX_RESULTS}).]` : '';
  return { ok: true, content: `${Math.min(symbols.length, limit)} ${what}:\n${lines.join('\n')}${more}` };
}

const findReferencesInput = z.object({
  symbol: requiredText('symbol', 'the name to look for, e.g. "Add" or "Calculator.Add"').describe('The symbol name ("Add", or "Calculator.Add")'),
  limit: optionalInt(`At most this many places (default ${DEFAULT_REFERENCES}, at most ${MAX_RESULTS})`),
});
export type FindReferencesInput = z.infer<typeof findReferencesInput>;

export const findReferencesTool: ToolDefinition<FindReferencesInput> = {
  name: 'find_references',
  description:
    'Find where a C# symbol is used (declaration included): file:line:column with the source line. ' +
    'Matching is by name, so other symbols with the same name may appear.',
  input: findReferencesInput,
  readonly: true,
  timeoutMs: 60_000,
  execute: findReferences,
};

async function findReferences(input: FindReferencesInput, ctx: ToolContext): Promise<ToolOutcome> {
  const limit = clampLimit(input.limit, DEFAULT_REFERENCES);
  const places = await ctx.host.symbols.findReferences(input.symbol, { limit: limit + 1, signal: ctx.signal });
  if (places.length === 0) {
    return { ok: true, content: `No references to ${JSON.stringify(input.symbol)} found. Check the spelling with find_symbols, or use search_text.` };
  }
  const lines = places.slice(0, limit).map((p) => `${p.filePath}:${p.line}:${p.column}: ${p.preview}`);
  const more = places.length > limit ? `\n[More references not shown; raise limit (at most ${MAX_RESULTS}).]` : '';
  return { ok: true, content: `${Math.min(places.length, limit)} reference(s) to ${JSON.stringify(input.symbol)}:\n${lines.join('\n')}${more}` };
}

function clampLimit(limit: number | undefined, fallback: number): number {
  return Math.min(Math.max(limit ?? fallback, 1), MAX_RESULTS);
}
