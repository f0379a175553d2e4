// Ranking symbol names against a query the way IDE "go to symbol" boxes do: exact first, then
// prefix, substring, and camel humps ("CalcTe" finds CalculatorTests). A dotted query
// ("Calculator.Add") also requires the container to end with the part before the last dot.

import type { SymbolInfo, SymbolKind } from '../host';

/** Lower is better; null is no match. */
export function matchRank(symbol: Pick<SymbolInfo, 'name' | 'containerName'>, query: string): number | null {
  const trimmed = query.trim();
  const dot = trimmed.lastIndexOf('.');
  const qualifier = dot > 0 ? trimmed.slice(0, dot).toLowerCase() : '';
  const wanted = dot > 0 ? trimmed.slice(dot + 1) : trimmed;
  if (qualifier) {
    const container = (symbol.containerName ?? '').toLowerCase();
    if (container !== qualifier && !container.endsWith(`.${qualifier}`)) return null;
  }
  if (wanted === '') return 5;
  const name = symbol.name;
  if (name === wanted) return 0;
  const lowerName = name.toLowerCase();
  const lowerWanted = wanted.toLowerCase();
  if (lowerName === lowerWanted) return 1;
  if (lowerName.startsWith(lowerWanted)) return 2;
  if (lowerName.includes(lowerWanted)) return 3;
  if (lowerWanted.length >= 2 && matchesHumps(humps(name), lowerWanted)) return 4;
  return null;
}

/** Word starts of an identifier: HTTPServer2Config → http, server, 2, config. */
export function humps(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((h) => h.toLowerCase());
}

/** Whether the query is a run of prefixes of successive humps (humps may be skipped). */
function matchesHumps(parts: readonly string[], query: string, from = 0, at = 0): boolean {
  if (at === query.length) return true;
  for (let h = from; h < parts.length; h++) {
    const hump = parts[h];
    let common = 0;
    while (common < hump.length && at + common < query.length && hump[common] === query[at + common]) common++;
    for (let take = common; take >= 1; take--) {
      if (matchesHumps(parts, query, h + 1, at + take)) return true;
    }
  }
  return false;
}

const KIND_ORDER: SymbolKind[] = [
  'class',
  'record',
  'struct',
  'interface',
  'enum',
  'delegate',
  'namespace',
  'constructor',
  'method',
  'property',
  'field',
  'event',
  'other',
];

/** Best match first; among equals, types before members, then shorter names, then by place. */
export function compareMatches(a: { rank: number; symbol: SymbolInfo }, b: { rank: number; symbol: SymbolInfo }): number {
  return (
    a.rank - b.rank ||
    KIND_ORDER.indexOf(a.symbol.kind) - KIND_ORDER.indexOf(b.symbol.kind) ||
    a.symbol.name.length - b.symbol.name.length ||
    a.symbol.filePath.localeCompare(b.symbol.filePath) ||
    a.symbol.line - b.symbol.line
  );
}
