// search_text: grep across the workspace through the overlay (so staged edits are found), bounded
// in files, file size, matches and line length, and stopping when the call is aborted.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { matchesGlob } from './glob';
import { optionalBool, optionalInt, optionalString, requiredText } from './lenient';
import { displayPath, resolveWorkspacePath } from './paths';
import { missingPathMessage, splitLines } from './text-view';

const DEFAULT_MAX = 50;
const MAX_MAX = 500;
const WALK_LIMIT = 20_000;
/** Larger files are generated or data; reading them costs more than it tells. */
const MAX_FILE_CHARS = 1_000_000;
const MAX_LINE_SHOWN = 240;

const searchTextInput = z.object({
  query: requiredText('query', 'the text (or regular expression) to look for', { trim: false }).describe('Text to find (or a regular expression when isRegex is true)'),
  isRegex: optionalBool('Treat query as a JavaScript regular expression (default false)'),
  caseSensitive: optionalBool('Match case exactly (default false)'),
  path: optionalString('Folder or file to search, relative to the workspace root (default: the root)'),
  filePattern: optionalString('Glob for the files to search, e.g. "*.cs" or "tests/**/*.cs"'),
  maxResults: optionalInt(`At most this many matching lines (default ${DEFAULT_MAX}, at most ${MAX_MAX})`),
});
export type SearchTextInput = z.infer<typeof searchTextInput>;

export const searchTextTool: ToolDefinition<SearchTextInput> = {
  name: 'search_text',
  description:
    'Search the text of workspace files (staged edits included) and return matching lines as path:line: text. ' +
    'Skips bin, obj, .git, .ironbees and node_modules. Case-insensitive unless caseSensitive is true.',
  input: searchTextInput,
  readonly: true,
  timeoutMs: 30_000,
  execute: searchText,
};

async function searchText(input: SearchTextInput, ctx: ToolContext): Promise<ToolOutcome> {
  const matcher = buildMatcher(input);
  if (typeof matcher === 'string') return { ok: false, error: matcher };
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, input.path ?? '');
  const kind = await ctx.overlay.kind(rel);
  if (kind === 'missing') return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  const files = kind === 'file' ? [rel] : await ctx.overlay.listFiles(rel, { maxFiles: WALK_LIMIT });
  const prefix = kind === 'file' || rel === '' ? '' : `${rel}/`;
  const pattern = input.filePattern?.trim() ?? '';
  const max = Math.min(Math.max(input.maxResults ?? DEFAULT_MAX, 1), MAX_MAX);

  const hits: string[] = [];
  let total = 0;
  let skipped = 0;
  for (const file of files) {
    if (ctx.signal?.aborted) break;
    if (pattern && !matchesGlob(file.slice(prefix.length), pattern)) continue;
    const text = await readSearchable(ctx, file);
    if (text === null) {
      skipped++;
      continue;
    }
    splitLines(text).forEach((line, i) => {
      if (!matcher(line)) return;
      total++;
      if (hits.length < max) hits.push(`${file}:${i + 1}: ${shorten(line.trim())}`);
    });
  }

  const where = `${displayPath(rel)}${pattern ? ` (files matching ${pattern})` : ''}`;
  if (total === 0) return { ok: true, content: `No matches for ${JSON.stringify(input.query)} in ${where}.${notes(skipped, ctx)}` };
  const more = total > hits.length ? `\n[${total - hits.length} more matches not shown; narrow the query, path or filePattern, or raise maxResults (at most ${MAX_MAX}).]` : '';
  return { ok: true, content: `${total} match(es) for ${JSON.stringify(input.query)} in ${where}:\n${hits.join('\n')}${more}${notes(skipped, ctx)}` };
}

function buildMatcher(input: SearchTextInput): ((line: string) => boolean) | string {
  const flags = input.caseSensitive ? '' : 'i';
  if (input.isRegex) {
    try {
      const regex = new RegExp(input.query, flags);
      return (line) => regex.test(line);
    } catch (error) {
      return `query is not a valid regular expression (${(error as Error).message}); fix it, or set isRegex to false to search for the literal text.`;
    }
  }
  if (input.caseSensitive) return (line) => line.includes(input.query);
  const needle = input.query.toLowerCase();
  return (line) => line.toLowerCase().includes(needle);
}

/** The file's text, or null for files that are binary, undecodable or too large to be source. */
async function readSearchable(ctx: ToolContext, file: string): Promise<string | null> {
  try {
    const text = await ctx.overlay.read(file);
    return text !== null && text.length <= MAX_FILE_CHARS ? text : null;
  } catch {
    return null;
  }
}

function shorten(line: string): string {
  return line.length > MAX_LINE_SHOWN ? `${line.slice(0, MAX_LINE_SHOWN)}…` : line;
}

function notes(skipped: number, ctx: ToolContext): string {
  const parts: string[] = [];
  if (skipped > 0) parts.push(`\n[${skipped} binary, non-UTF-8 or very large file(s) were skipped.]`);
  if (ctx.signal?.aborted) parts.push('\n[The search was stopped before it finished; results are partial.]');
  return parts.join('');
}
