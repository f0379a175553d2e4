// The declaration scanner's view of a head of tokens: plain tokens, and bracketed groups kept as one
// item so that what is inside them (parameters, attribute arguments) cannot end a declaration early.
// Shared by declarations.ts and base-types.ts.

import type { Token } from './tokens';

/** A bracketed group kept as one item. */
export interface Group {
  kind: 'group';
  open: '(' | '[';
  inner: Token[];
}
export type Item = Token | Group;

export const isToken = (item: Item | undefined, text?: string): item is Token =>
  item !== undefined && item.kind !== 'group' && (text === undefined || item.text === text);
export const isPlainToken = (item: Item): item is Token => item.kind !== 'group';
/** The token's text, without narrowing the item's type (unlike isToken). */
export const textOf = (item: Item | undefined): string | undefined => (item !== undefined && item.kind !== 'group' ? item.text : undefined);
export const isIdent = (item: Item | undefined): item is Token => isToken(item) && item.kind === 'ident';
export const isGroup = (item: Item | undefined, open?: '(' | '['): item is Group =>
  item !== undefined && item.kind === 'group' && (open === undefined || item.open === open);

export function withoutAttributes(head: Item[]): Item[] {
  let k = 0;
  while (isGroup(head[k], '[')) k++;
  return k === 0 ? head : head.slice(k);
}

/** Re-reads loose tokens into top-level items (used for parameter lists and enum bodies). */
export function regroup(tokens: Token[]): Item[] {
  const items: Item[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const text = tokens[k].text;
    if (text !== '(' && text !== '[' && text !== '{') {
      items.push(tokens[k]);
      continue;
    }
    let depth = 0;
    const start = k;
    for (; k < tokens.length; k++) {
      const t = tokens[k].text;
      if (t === '(' || t === '[' || t === '{') depth++;
      else if ((t === ')' || t === ']' || t === '}') && --depth === 0) break;
    }
    items.push({ kind: 'group', open: text === '[' ? '[' : '(', inner: tokens.slice(start + 1, k) });
  }
  return items;
}
