// The pure text operations behind the editor's str_replace and insert. They work on LF text (the
// overlay hands out LF and writes back the file's own line endings) and answer with data: either
// the new text and where it changed, or a message telling the model how to fix its call.

import { splitLines } from './text-view';

export type EditOpResult = { ok: true; text: string; firstLine: number; lastLine: number } | { ok: false; error: string };

const MAX_LISTED_MATCHES = 10;

export function replaceExactlyOnce(text: string, oldStr: string, newStr: string, displayPath: string): EditOpResult {
  if (oldStr === '') {
    return { ok: false, error: 'old_str is empty. Give the exact text to replace, or use the insert command to add text at a line.' };
  }
  const starts = occurrences(text, oldStr);
  if (starts.length === 0) {
    return {
      ok: false,
      error: `No replacement was performed: old_str did not appear verbatim in ${displayPath}.${noMatchHint(text, oldStr)}`,
    };
  }
  if (starts.length > 1) {
    const lines = starts.slice(0, MAX_LISTED_MATCHES).map((s) => lineAt(text, s));
    const more = starts.length > MAX_LISTED_MATCHES ? ` (first ${MAX_LISTED_MATCHES} shown)` : '';
    return {
      ok: false,
      error:
        `No replacement was performed: old_str occurs ${starts.length} times in ${displayPath}, at lines ${lines.join(', ')}${more}. ` +
        'Include enough surrounding lines in old_str that it matches exactly once.',
    };
  }
  const start = starts[0];
  const next = text.slice(0, start) + newStr + text.slice(start + oldStr.length);
  const firstLine = lineAt(next, start);
  return { ok: true, text: next, firstLine, lastLine: firstLine + countNewlines(newStr) };
}

/** Inserts whole lines after line `afterLine` (0 = at the top). */
export function insertLines(text: string, afterLine: number, insertText: string, displayPath: string): EditOpResult {
  const lines = splitLines(text);
  if (!Number.isInteger(afterLine) || afterLine < 0 || afterLine > lines.length) {
    return {
      ok: false,
      error: `insert_line ${afterLine} is out of range: ${displayPath} has ${lines.length} lines, so use 0 (top) to ${lines.length} (end); the text goes after that line.`,
    };
  }
  // The model often ends insert_text with a newline; it means "these lines", not an extra blank one.
  const added = splitLines(insertText.endsWith('\n') ? insertText : `${insertText}\n`);
  const merged = [...lines.slice(0, afterLine), ...added, ...lines.slice(afterLine)];
  // A file without a final newline keeps lacking one; an empty file gets one, as editors write it.
  const finalNewline = text === '' || text.endsWith('\n') ? '\n' : '';
  return { ok: true, text: merged.join('\n') + finalNewline, firstLine: afterLine + 1, lastLine: afterLine + added.length };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function lineAt(text: string, index: number): number {
  return countNewlines(text.slice(0, index)) + 1;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Why old_str did not match, as far as a cheap look can tell. */
function noMatchHint(text: string, oldStr: string): string {
  if (/^\s*\d+\t/.test(oldStr)) {
    return ' old_str seems to start with a line number copied from view output; remove the numbers and the tab after them.';
  }
  const fileLines = splitLines(text);
  const wanted = splitLines(oldStr).map((l) => l.trim());
  const atLine = findIgnoringWhitespace(fileLines, wanted);
  if (atLine !== null) {
    return ` It matches lines ${atLine}-${atLine + wanted.length - 1} if indentation and spacing are ignored; view those lines and copy their whitespace exactly.`;
  }
  const firstWanted = wanted.find((l) => l !== '');
  if (firstWanted === undefined) return ' old_str holds only whitespace; include some of the text around the place to edit.';
  const closest = closestLine(fileLines, firstWanted);
  if (closest)
    return ` The closest line to the start of old_str is line ${closest.line}: ${JSON.stringify(closest.text.trim())}. View the file and copy the text exactly.`;
  return ' View the file (or search_text) to find the exact text, then copy it exactly, whitespace included.';
}

function findIgnoringWhitespace(fileLines: readonly string[], wanted: readonly string[]): number | null {
  if (wanted.length === 0 || wanted.every((l) => l === '')) return null;
  const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const target = wanted.map(squash);
  for (let i = 0; i + target.length <= fileLines.length; i++) {
    if (target.every((w, j) => squash(fileLines[i + j]) === w)) return i + 1;
  }
  return null;
}

function closestLine(fileLines: readonly string[], wanted: string): { line: number; text: string } | null {
  let best: { line: number; text: string; score: number } | null = null;
  fileLines.forEach((text, i) => {
    const score = similarity(text.trim(), wanted);
    if (score > (best?.score ?? 0.5)) best = { line: i + 1, text, score };
  });
  return best;
}

/** Dice coefficient over character bigrams: cheap, and good at "almost the same line". */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}
