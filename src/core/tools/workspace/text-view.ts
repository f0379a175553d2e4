// Shared rendering for the workspace tools: numbered lines in the `cat -n` style the model knows
// from Anthropic's text editor, and "did you mean" hints for paths that do not exist.

import * as path from 'node:path';
import type { StagedOverlay } from '../../workspace/overlay';

/** Lines of LF text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** `     1\tfirst line` for each line, numbered from `firstLine`. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => `${String(firstLine + i).padStart(6)}\t${line}`).join('\n');
}

/** Numbered lines with a character budget: stops before the line that would exceed it. */
export function numberLinesWithin(lines: readonly string[], firstLine: number, maxChars: number): { text: string; shown: number } {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const rendered = `${String(firstLine + i).padStart(6)}\t${lines[i]}`;
    if (out.length > 0 && used + rendered.length + 1 > maxChars) break;
    out.push(rendered);
    used += rendered.length + 1;
  }
  return { text: out.join('\n'), shown: out.length };
}

const MAX_SUGGESTIONS = 5;

/** "The path does not exist" with the files whose names come closest, so the model can retry at once. */
export async function missingPathMessage(overlay: StagedOverlay, rel: string): Promise<string> {
  const wanted = path.posix.basename(rel).toLowerCase();
  const wantedStem = wanted.replace(/\.[^.]+$/, '');
  let candidates: string[] = [];
  try {
    const files = await overlay.listFiles('', { maxFiles: 20000 });
    candidates = files
      .map((f) => ({ f, base: path.posix.basename(f).toLowerCase() }))
      .filter(({ base }) => base === wanted || (wantedStem.length >= 3 && base.includes(wantedStem)))
      .sort((a, b) => Number(b.base === wanted) - Number(a.base === wanted) || a.f.length - b.f.length)
      .slice(0, MAX_SUGGESTIONS)
      .map(({ f }) => f);
  } catch {
    // Suggestions are a courtesy; the error itself must still reach the model.
  }
  const hint = candidates.length
    ? ` Did you mean: ${candidates.join(', ')}?`
    : ' Use list_files to see which files exist (paths are relative to the workspace root).';
  return `The path ${rel === '' ? '.' : rel} does not exist.${hint}`;
}
