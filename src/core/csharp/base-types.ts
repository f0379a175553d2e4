// The base list of a type declaration, read from its head of tokens: `class Shape<T> : Base<T>,
// IShape where T : new()` has the bases `Base<T>` and `IShape`. The text index answers "base and
// derived types" from these lists when no language server can (the CLI).

import { isGroup, isToken } from './items';
import type { Item } from './items';

/** The bases written after the type's name (at `nameAt` in `head`), as source text without spaces. */
export function baseTypeList(head: readonly Item[], nameAt: number): string[] {
  let k = nameAt + 1;
  if (isToken(head[k], '<')) k = pastAngles(head, k);
  // A record's or class's primary constructor parameters.
  if (isGroup(head[k], '(')) k++;
  if (!isToken(head[k], ':')) return [];
  const bases: string[] = [];
  let part = '';
  let angle = 0;
  const flush = (): void => {
    if (part !== '') bases.push(part);
    part = '';
  };
  for (k++; k < head.length; k++) {
    const item = head[k];
    // `record B(int X) : A(X)`: the arguments passed to the base constructor are not part of its name.
    if (!isToken(item)) continue;
    if (angle === 0 && item.text === 'where') break;
    if (item.text === '<') angle++;
    else if (item.text === '>') angle--;
    if (item.text === ',' && angle === 0) flush();
    else part += item.text === ',' ? ', ' : item.text;
  }
  flush();
  return bases;
}

/** The name a base is declared under: `global::System.Collections.Generic.IList<int>` → `IList`. */
export function simpleTypeName(written: string): string {
  const withoutArgs = written.replace(/<.*$/s, '').replace(/\?$/, '');
  return withoutArgs.split(/\.|::/).pop() ?? withoutArgs;
}

/** The namespace or type part of a written base (`Geometry.Shape` → `Geometry`), if any. */
export function qualifierOf(written: string): string {
  const withoutArgs = written.replace(/<.*$/s, '').replace(/^global::/, '');
  const dot = withoutArgs.lastIndexOf('.');
  return dot === -1 ? '' : withoutArgs.slice(0, dot);
}

function pastAngles(head: readonly Item[], from: number): number {
  let depth = 0;
  for (let k = from; k < head.length; k++) {
    if (isToken(head[k], '<')) depth++;
    else if (isToken(head[k], '>') && --depth === 0) return k + 1;
  }
  return head.length;
}
