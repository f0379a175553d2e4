// What is at a line and column of blanked C# code (see lexer.ts): the identifier under it, and the
// name written before a `.` in front of it (`Calc.Add` → qualifier Calc), which narrows a
// by-name lookup the way the compiler's member access would.

export interface IdentifierAt {
  name: string;
  /** 1-based column where the identifier starts. */
  column: number;
  /** The identifier before `.`/`?.` in front of this one, when there is one. */
  qualifier?: string;
}

const IDENT = /@?[\p{L}_][\p{L}\p{N}_\p{Mn}\p{Mc}\p{Pc}]*/gu;

/**
 * The identifier covering the 1-based `column`. A column just past its end counts too: editors
 * and people often put the caret after a word.
 */
export function identifierAt(codeLine: string, column: number): IdentifierAt | null {
  const at = column - 1;
  for (const match of codeLine.matchAll(IDENT)) {
    const start = match.index;
    const end = start + match[0].length;
    if (at < start) break;
    if (at > end) continue;
    const verbatim = match[0].startsWith('@') ? 1 : 0;
    const qualifier = qualifierBefore(codeLine, start);
    return { name: match[0].slice(verbatim), column: start + 1 + verbatim, ...(qualifier ? { qualifier } : {}) };
  }
  return null;
}

/** The 1-based column of the first whole-word `name` in the line, or null. */
export function columnOf(codeLine: string, name: string): number | null {
  for (const match of codeLine.matchAll(IDENT)) {
    if (match[0].replace(/^@/, '') === name) return match.index + 1 + (match[0].startsWith('@') ? 1 : 0);
  }
  return null;
}

function qualifierBefore(codeLine: string, start: number): string | undefined {
  const before = codeLine.slice(0, start).replace(/\s+$/, '');
  const access = /(\?\.|\.)$/.exec(before);
  if (!access) return undefined;
  const left = before.slice(0, before.length - access[0].length).replace(/\s+$/, '');
  const word = /@?[\p{L}_][\p{L}\p{N}_\p{Mn}\p{Mc}\p{Pc}]*$/u.exec(left);
  return word ? word[0].replace(/^@/, '') : undefined;
}
