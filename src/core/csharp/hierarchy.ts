// Go to definition and type hierarchy from the text index's declarations, for hosts without a
// language server. Both are by name: a use resolves to the declarations with its name (narrowed by
// the qualifier written before it), and `class B : A` makes B a derived type of every type named A.
// Coarser than a compiler, but it points at the right lines for the common cases.

import type { RelatedType, SymbolInfo, SymbolKind, TypeRelations } from '../host';
import { qualifierOf, simpleTypeName } from './base-types';
import type { IdentifierAt } from './position';
import { compareMatches, matchRank } from './symbol-match';

export type IndexedSymbol = SymbolInfo & { bases?: string[] };

const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'struct', 'interface', 'record', 'enum', 'delegate']);
const MAX_DEFINITIONS = 20;

/** Declarations a use of `ident` may refer to; the declaration itself when `ident` is one. */
export function definitionsOf(
  ident: IdentifierAt,
  at: { filePath: string; line: number },
  symbols: readonly IndexedSymbol[],
): SymbolInfo[] {
  const own = symbols.find((s) => s.filePath === at.filePath && s.line === at.line && s.column === ident.column && s.name === ident.name);
  if (own) return [withoutBases(own)];
  const named = symbols.filter((s) => s.name === ident.name);
  const qualified = ident.qualifier ? named.filter((s) => endsWithPart(s.containerName, ident.qualifier ?? '')) : [];
  return (qualified.length > 0 ? qualified : named)
    .map((symbol) => ({ rank: 0, symbol }))
    .sort(compareMatches)
    .slice(0, MAX_DEFINITIONS)
    .map((m) => withoutBases(m.symbol));
}

/** The types named `typeName` (partial declarations merged) with their direct bases and derived types. */
export function typeRelations(typeName: string, symbols: readonly IndexedSymbol[]): TypeRelations[] {
  const types = symbols.filter((s) => TYPE_KINDS.has(s.kind));
  const exact = types.filter((t) => matchRank(t, typeName) === 0);
  const targets = exact.length > 0 ? exact : types.filter((t) => matchRank(t, typeName) === 1);
  const byQualifiedName = new Map<string, IndexedSymbol[]>();
  for (const target of targets) {
    const key = qualifiedName(target);
    byQualifiedName.set(key, [...(byQualifiedName.get(key) ?? []), target]);
  }
  // By simple name, so each lookup below reads a handful of types rather than all of them.
  const named = new Map<string, IndexedSymbol[]>();
  for (const t of types) named.set(t.name, [...(named.get(t.name) ?? []), t]);
  return [...byQualifiedName.values()].map((parts) => {
    const target = parts[0];
    const written = unique(parts.flatMap((p) => p.bases ?? []));
    const supertypes = written.flatMap((base): RelatedType[] => {
      const resolved = uniqueTypes(resolveBase(base, target, named));
      return resolved.length > 0 ? resolved.map(toRelated) : [{ name: base, kind: 'other' }];
    });
    const derived = types.filter((t) =>
      (t.bases ?? []).some((base) => simpleTypeName(base) === target.name && resolveBase(base, t, named).some((r) => sameType(r, target))),
    );
    return { type: withoutBases(target), supertypes, subtypes: uniqueTypes(derived).map(toRelated) };
  });
}

export function withoutBases(symbol: IndexedSymbol): SymbolInfo {
  const { bases: _bases, ...info } = symbol;
  return info;
}

/**
 * The declared types a base written in `from` may name. C# looks in the enclosing namespaces and
 * types first: the nearest such declaration wins. Otherwise the usings decide, which the index does
 * not follow, so every type of that name is returned. Empty when the workspace declares none (a
 * framework or package type).
 */
function resolveBase(written: string, from: IndexedSymbol, named: ReadonlyMap<string, readonly IndexedSymbol[]>): IndexedSymbol[] {
  const candidates = (named.get(simpleTypeName(written)) ?? []).filter((t) => !sameType(t, from) && refersTo(written, t));
  const scope = from.containerName ?? '';
  const visible = candidates
    .filter((t) => {
      const container = t.containerName ?? '';
      return container === '' || scope === container || scope.startsWith(`${container}.`);
    })
    .sort((a, b) => (b.containerName ?? '').length - (a.containerName ?? '').length);
  if (visible.length === 0) return candidates;
  return visible.filter((t) => sameType(t, visible[0]));
}

/** Partial declarations of one type are separate symbols; they share the qualified name. */
function sameType(a: SymbolInfo, b: SymbolInfo): boolean {
  return qualifiedName(a) === qualifiedName(b);
}

/** Whether a base written as `Geometry.Shape<T>` can name this declaration. */
function refersTo(written: string, type: SymbolInfo): boolean {
  if (simpleTypeName(written) !== type.name) return false;
  const qualifier = qualifierOf(written);
  return qualifier === '' || endsWithPart(type.containerName, qualifier);
}

function endsWithPart(container: string | undefined, qualifier: string): boolean {
  const c = container ?? '';
  return c === qualifier || c.endsWith(`.${qualifier}`);
}

function qualifiedName(symbol: SymbolInfo): string {
  return symbol.containerName ? `${symbol.containerName}.${symbol.name}` : symbol.name;
}

function toRelated(symbol: IndexedSymbol): RelatedType {
  return withoutBases(symbol);
}

function uniqueTypes(types: readonly IndexedSymbol[]): IndexedSymbol[] {
  const seen = new Set<string>();
  return types.filter((t) => {
    const key = qualifiedName(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
