// A small glob matcher for list_files and search_text. Node's path.matchesGlob would do, but on
// Node 20 it prints an ExperimentalWarning into the CLI's stderr. Supports **, *, ?, {a,b} and
// [abc]; case-insensitive, because models write *.CS as often as *.cs.

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let source = '';
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (c === '?') {
      source += '[^/]';
    } else if (c === '{') {
      braceDepth++;
      source += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      source += ')';
    } else if (c === ',' && braceDepth > 0) {
      source += '|';
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) {
        source += '\\[';
      } else {
        const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else {
      source += c.replace(/[.+^$()|\\{}\]]/g, '\\$&');
    }
  }
  source += ')'.repeat(braceDepth);
  const regex = new RegExp(`^${source}$`, 'i');
  cache.set(pattern, regex);
  return regex;
}

/**
 * Whether a relative path (forward slashes) matches. A pattern without a slash matches the file
 * name anywhere (`*.cs`), as people expect from a file search box.
 */
export function matchesGlob(relPath: string, pattern: string): boolean {
  const clean = pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (clean === '') return true;
  const regex = globToRegExp(clean);
  if (regex.test(relPath)) return true;
  if (!clean.includes('/')) {
    const slash = relPath.lastIndexOf('/');
    return regex.test(relPath.slice(slash + 1));
  }
  return false;
}
