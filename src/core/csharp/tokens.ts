// Tokens of blanked C# code (see lexer.ts): identifiers, numbers and punctuation, with 1-based
// line and column. Only the multi-character operators the declaration scanner cares about are
// joined; `>>` stays two tokens because it usually closes two generic argument lists.

export interface Token {
  text: string;
  kind: 'ident' | 'number' | 'punct';
  line: number;
  column: number;
}

const JOINED = [
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '::',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '->',
];
const IDENT_START = /[\p{L}_@]/u;
const IDENT_PART = /[\p{L}\p{N}_\p{Mn}\p{Mc}\p{Pc}]/u;

export function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '\n') {
      line++;
      i++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF') {
      i++;
      continue;
    }
    const column = i - lineStart + 1;
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < code.length && IDENT_PART.test(code[j])) j++;
      // A verbatim identifier (@class) is the identifier `class`.
      const text = code.slice(c === '@' ? i + 1 : i, j);
      if (text !== '') tokens.push({ text, kind: 'ident', line, column: c === '@' ? column + 1 : column });
      i = j;
      continue;
    }
    if (c >= '0' && c <= '9') {
      let j = i + 1;
      while (j < code.length && /[\w.]/.test(code[j])) j++;
      tokens.push({ text: code.slice(i, j), kind: 'number', line, column });
      i = j;
      continue;
    }
    const joined = JOINED.find((op) => code.startsWith(op, i));
    const text = joined ?? c;
    tokens.push({ text, kind: 'punct', line, column });
    i += text.length;
  }
  return tokens;
}
