// How find_symbols and find_references show symbols to the model: one line per symbol, with
// file:line:column it can pass straight back as `at`.

import type { RelatedType, SymbolDefinition, SymbolInfo, TypeRelations } from '../host';

export type HierarchyDirection = 'base' | 'derived' | 'both';

export function symbolLine(s: SymbolInfo): string {
  return `${s.kind} ${s.name} — ${s.filePath}:${s.line}:${s.column}${s.containerName ? ` (in ${s.containerName})` : ''}`;
}

export function definitionLines(definitions: readonly SymbolDefinition[]): string {
  return definitions.map((d) => `${symbolLine(d)}\n    ${d.preview}`).join('\n');
}

export function relationsText(relations: readonly TypeRelations[], direction: HierarchyDirection): string {
  return relations
    .map((r) => {
      const parts = [symbolLine(r.type)];
      if (direction !== 'derived') parts.push(section('base types (base class and interfaces)', r.supertypes, 'none declared'));
      if (direction !== 'base') parts.push(section('derived types (subclasses and implementations)', r.subtypes, 'none in the workspace'));
      return parts.join('\n');
    })
    .join('\n\n');
}

function section(title: string, types: readonly RelatedType[], none: string): string {
  if (types.length === 0) return `  ${title}: ${none}`;
  return `  ${title}:\n${types.map((t) => `    ${relatedLine(t)}`).join('\n')}`;
}

function relatedLine(t: RelatedType): string {
  const kind = t.kind === 'other' ? '' : `${t.kind} `;
  const where = t.filePath !== undefined ? ` — ${t.filePath}:${t.line ?? 1}:${t.column ?? 1}` : ' (outside the workspace)';
  return `${kind}${t.name}${where}${t.containerName ? ` (in ${t.containerName})` : ''}`;
}

/** "Calculator.Add" for a member of Acme.Calculator: the name plus the innermost container, which find_references narrows by. */
export function referenceName(s: SymbolInfo): string {
  const container = s.containerName?.split('.').pop();
  return container ? `${container}.${s.name}` : s.name;
}
