// The glob matcher for list_files and search_text: **, *, ?, {a,b} and [abc]; case-insensitive,
// because models write *.CS as often as *.cs. Patterns come from the model, so matching must stay
// cheap whatever they say: a glob compiled to a JavaScript RegExp (picomatch's, or the one this file
// made before) backtracks, and `{*,*}` nine times then `Z` took minutes on one file name. Here braces
// are expanded first (duplicates merged, at most MAX_ALTERNATIVES), and each alternative is matched
// with the two-pointer wildcard algorithm, at the level of path segments (`**`) and of characters
// within a segment (`*`): time is at most the pattern's length times the path's, never exponential.

/** More alternatives than this after brace expansion is refused: each is matched against every path. */
export const MAX_ALTERNATIVES = 64;
/** Longer patterns are refused: no real file pattern is this long. */
export const MAX_PATTERN_LENGTH = 1_000;

/** A pattern the matcher refuses (too long, too many alternatives); its message says how to fix it. */
export class GlobPatternError extends Error {}

type CharToken =
  { kind: 'star' } | { kind: 'any' } | { kind: 'char'; char: string } | { kind: 'class'; negated: boolean; items: Array<[string, string]> };
type Segment = { kind: 'globstar' } | { kind: 'segment'; tokens: CharToken[] };

export interface CompiledGlob {
  /** Whether a relative path (forward slashes) matches. */
  matches(relPath: string): boolean;
}

const cache = new Map<string, CompiledGlob>();
const MAX_CACHED = 200;

/** Compiles a pattern (cached); throws GlobPatternError for one it refuses. */
export function compileGlob(pattern: string): CompiledGlob {
  const cached = cache.get(pattern);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new GlobPatternError(`The pattern is ${pattern.length} characters long; use one of at most ${MAX_PATTERN_LENGTH}.`);
  const alternatives = expandBraces(pattern.toLowerCase()).map(parseAlternative);
  // A pattern without a slash matches the file name anywhere (`*.cs`), as people expect from a file search box.
  const byName = !pattern.includes('/');
  const compiled: CompiledGlob = {
    matches(relPath: string): boolean {
      const segments = relPath.toLowerCase().split('/');
      if (alternatives.some((alternative) => matchSegments(alternative, segments))) return true;
      const name = segments[segments.length - 1] ?? '';
      return byName && segments.length > 1 && alternatives.some((alternative) => matchSegments(alternative, [name]));
    },
  };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/**
 * Whether a relative path (forward slashes) matches. A pattern without a slash matches the file
 * name anywhere (`*.cs`). Throws GlobPatternError for a pattern it refuses.
 */
export function matchesGlob(relPath: string, pattern: string): boolean {
  const clean = cleanPattern(pattern);
  return clean === '' || compileGlob(clean).matches(relPath);
}

/** The pattern as matched: trimmed, forward slashes, no leading `./`. */
export function cleanPattern(pattern: string): string {
  return pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

/** `a{b,c{d,e}}f` → abf, acdf, acef; a brace without a top-level comma is literal. Duplicates merged. */
function expandBraces(pattern: string): string[] {
  const group = firstBraceGroup(pattern);
  if (!group) return [pattern];
  const { open, close, commas } = group;
  const prefix = pattern.slice(0, open);
  const suffix = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const results = new Set<string>();
  for (let i = 0; i + 1 < bounds.length; i++) {
    const choice = pattern.slice((bounds[i] ?? 0) + 1, bounds[i + 1]);
    for (const expanded of expandBraces(`${prefix}${choice}${suffix}`)) {
      results.add(expanded);
      if (results.size > MAX_ALTERNATIVES) {
        throw new GlobPatternError(
          `The pattern's braces make more than ${MAX_ALTERNATIVES} alternatives; use fewer braces or call the tool more than once.`,
        );
      }
    }
  }
  return [...results];
}

/** The first `{…}` with a comma at its own level, with where its commas are; null when none. */
function firstBraceGroup(pattern: string): { open: number; close: number; commas: number[] } | null {
  for (let open = pattern.indexOf('{'); open !== -1; open = pattern.indexOf('{', open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        if (commas.length > 0) return { open, close: i, commas };
        break;
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return null;
}

function parseAlternative(alternative: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of alternative.split('/')) {
    if (part === '**') {
      // `**/**` is `**`.
      if (segments[segments.length - 1]?.kind !== 'globstar') segments.push({ kind: 'globstar' });
    } else {
      segments.push({ kind: 'segment', tokens: parseSegment(part) });
    }
  }
  return segments;
}

function parseSegment(text: string): CharToken[] {
  const tokens: CharToken[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '*') {
      // `a**b` within a segment is `a*b`: runs of stars are one star.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[' && text.indexOf(']', i + 2) !== -1) {
      const close = text.indexOf(']', i + 2);
      tokens.push(parseClass(text.slice(i + 1, close)));
      i = close;
    } else {
      tokens.push({ kind: 'char', char: c });
    }
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!x]` / `[^x]`. */
function parseClass(body: string): CharToken {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = [...(negated ? body.slice(1) : body)];
  const items: Array<[string, string]> = [];
  for (let i = 0; i < chars.length; i++) {
    const from = chars[i] as string;
    const to = chars[i + 2];
    if (chars[i + 1] === '-' && to !== undefined) {
      items.push([from, to]);
      i += 2;
    } else {
      items.push([from, from]);
    }
  }
  return { kind: 'class', negated, items };
}

/** Path segments against pattern segments; `**` matches any number of segments (none included). */
function matchSegments(pattern: readonly Segment[], path: readonly string[]): boolean {
  return twoPointer(
    pattern.length,
    path.length,
    (p) => pattern[p]?.kind === 'globstar',
    (p, s) => {
      const segment = pattern[p];
      return segment?.kind === 'segment' && matchSegment(segment.tokens, path[s] ?? '');
    },
  );
}

/** One path segment against a segment's tokens; `*` matches any run of characters (none included). */
function matchSegment(tokens: readonly CharToken[], text: string): boolean {
  const chars = [...text];
  return twoPointer(
    tokens.length,
    chars.length,
    (t) => tokens[t]?.kind === 'star',
    (t, c) => matchChar(tokens[t], chars[c] ?? ''),
  );
}

function matchChar(token: CharToken | undefined, char: string): boolean {
  if (!token) return false;
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  if (token.kind === 'class') return token.items.some(([from, to]) => char >= from && char <= to) !== token.negated;
  return false;
}

/**
 * The classic wildcard match: walk both, and on a mismatch return to the last star and let it take
 * one more item. Only the last star is remembered, which is enough because every other token takes
 * exactly one item: at most (pattern length × subject length) steps.
 */
function twoPointer(
  patternLength: number,
  subjectLength: number,
  isStar: (p: number) => boolean,
  matchesOne: (p: number, s: number) => boolean,
): boolean {
  let p = 0;
  let s = 0;
  let starAt = -1;
  let starTook = 0;
  while (s < subjectLength) {
    if (p < patternLength && isStar(p)) {
      starAt = p++;
      starTook = s;
    } else if (p < patternLength && matchesOne(p, s)) {
      p++;
      s++;
    } else if (starAt !== -1) {
      p = starAt + 1;
      s = ++starTook;
    } else {
      return false;
    }
  }
  while (p < patternLength && isStar(p)) p++;
  return p === patternLength;
}

/** Why a pattern is refused (a message for the model), or null when it compiles. */
export function globProblem(pattern: string): string | null {
  try {
    const clean = cleanPattern(pattern);
    if (clean !== '') compileGlob(clean);
    return null;
  } catch (error) {
    if (error instanceof GlobPatternError) return error.message;
    throw error;
  }
}
