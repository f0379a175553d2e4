// Blanks what is not code in C# source: comments, string and char literals (regular, verbatim,
// interpolated, raw) and preprocessor lines become spaces. Offsets, lines and columns stay where
// they were, so the declaration scanner and the reference search can work on plain code and still
// report positions in the original file.

export function blankNonCode(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let i = 0;
  let lineStart = true;
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (lineStart && c === '#') {
      const end = endOfLine(source, i);
      blank(i, end);
      i = end;
      continue;
    }
    if (c !== ' ' && c !== '\t' && c !== '\r') lineStart = false;
    if (c === '/' && source[i + 1] === '/') {
      const end = endOfLine(source, i);
      blank(i, end);
      i = end;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      const end = close === -1 ? source.length : close + 2;
      blank(i, end);
      i = end;
      continue;
    }
    const literalEnd = skipLiteral(source, i);
    if (literalEnd !== -1) {
      blank(i, literalEnd);
      i = literalEnd;
      continue;
    }
    i++;
  }
  return out.join('');
}

function endOfLine(source: string, from: number): number {
  const nl = source.indexOf('\n', from);
  return nl === -1 ? source.length : nl;
}

/** If a string or char literal starts at `i`, the index just past it; otherwise -1. */
export function skipLiteral(source: string, i: number): number {
  const c = source[i];
  if (c === "'") return skipChar(source, i);
  let j = i;
  let dollars = 0;
  let verbatim = false;
  while (source[j] === '$' || source[j] === '@') {
    if (source[j] === '$') dollars++;
    else verbatim = true;
    j++;
  }
  if (source[j] !== '"' || j - i > 3) return -1;
  const quotes = countRun(source, j, '"');
  if (quotes >= 3) return skipRaw(source, j, quotes);
  return skipQuoted(source, j + 1, verbatim, dollars > 0);
}

function skipChar(source: string, i: number): number {
  // 'x', '\n', '\'', '\u0041', '\x41': a short run ending in an unescaped quote.
  let j = i + 1;
  for (let steps = 0; steps < 12 && j < source.length; steps++) {
    if (source[j] === '\\') j += 2;
    else if (source[j] === "'") return j + 1;
    else if (source[j] === '\n') return -1;
    else j++;
  }
  return -1;
}

function countRun(source: string, from: number, ch: string): number {
  let n = 0;
  while (source[from + n] === ch) n++;
  return n;
}

/** """raw""" literals end at the first run of as many quotes as opened them. */
function skipRaw(source: string, openAt: number, quotes: number): number {
  let j = openAt + quotes;
  while (j < source.length) {
    if (source[j] === '"') {
      const run = countRun(source, j, '"');
      if (run >= quotes) return j + run;
      j += run;
    } else {
      j++;
    }
  }
  return source.length;
}

function skipQuoted(source: string, from: number, verbatim: boolean, interpolated: boolean): number {
  let j = from;
  while (j < source.length) {
    const c = source[j];
    if (c === '"') {
      if (verbatim && source[j + 1] === '"') {
        j += 2;
        continue;
      }
      return j + 1;
    }
    if (c === '\\' && !verbatim) {
      j += 2;
      continue;
    }
    if (c === '\n' && !verbatim) return j; // unterminated: stop at the line end rather than eat the file
    if (interpolated && c === '{') {
      if (source[j + 1] === '{') {
        j += 2;
        continue;
      }
      j = skipHole(source, j + 1);
      continue;
    }
    j++;
  }
  return source.length;
}

/** An interpolation hole is code, and may hold its own strings; skip to its closing brace. */
function skipHole(source: string, from: number): number {
  let depth = 1;
  let j = from;
  while (j < source.length) {
    const c = source[j];
    const literalEnd = c === '"' || c === "'" || c === '$' || c === '@' ? skipLiteral(source, j) : -1;
    if (literalEnd !== -1) {
      j = literalEnd;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
    j++;
  }
  return source.length;
}
