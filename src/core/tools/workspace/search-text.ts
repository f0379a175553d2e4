// search_text: grep across the workspace through the overlay (so staged edits are found), bounded
// in files, file size, matches and line length, and stopping when the call is aborted. Literal
// text is matched here; a regular expression is matched in a worker thread with its own time limit
// (regex-worker.ts), so a pattern that backtracks without end cannot freeze the run.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { globProblem, matchesGlob } from '../../workspace/glob';
import { optionalBool, optionalInt, optionalString, requiredText } from './lenient';
import { displayPath, resolveWorkspacePath } from '../../workspace/paths';
import { searchLinesInWorker } from './regex-worker';
import type { RegexFile, RegexHit } from './regex-worker';
import { missingPathMessage, splitLines } from './text-view';

const DEFAULT_MAX = 50;
const MAX_MAX = 500;
const WALK_LIMIT = 20_000;
/** Larger files are generated or data; reading them costs more than it tells. */
const MAX_FILE_CHARS = 1_000_000;
const MAX_LINE_SHOWN = 240;
/** The regex worker's budget for the whole search: well inside the tool's own limit, so its clearer message wins. */
export const REGEX_TIME_LIMIT_MS = 10_000;
const TOOL_TIMEOUT_MS = 30_000;
/** Texts handed to one worker at a time, so a large workspace is never held in memory twice at once. */
const REGEX_BATCH_CHARS = 8_000_000;

const searchTextInput = z.object({
  query: requiredText('query', 'the text (or regular expression) to look for', { trim: false }).describe(
    'Text to find (or a regular expression when isRegex is true)',
  ),
  isRegex: optionalBool('Treat query as a JavaScript regular expression (default false)'),
  caseSensitive: optionalBool('Match case exactly (default false)'),
  path: optionalString('Folder or file to search, relative to the workspace root (default: the root)'),
  filePattern: optionalString('Glob for the files to search, e.g. "*.cs" or "tests/**/*.cs"'),
  maxResults: optionalInt(`At most this many matching lines (default ${DEFAULT_MAX}, at most ${MAX_MAX})`),
});
export type SearchTextInput = z.infer<typeof searchTextInput>;

export interface SearchTextOptions {
  /** How long the regular expression may run over the whole search (tests shorten it). */
  regexTimeLimitMs?: number;
}

export function createSearchTextTool(options: SearchTextOptions = {}): ToolDefinition<SearchTextInput> {
  const regexTimeLimitMs = options.regexTimeLimitMs ?? REGEX_TIME_LIMIT_MS;
  return {
    name: 'search_text',
    description:
      'Search the text of workspace files (staged edits included) and return matching lines as path:line: text. ' +
      'Skips bin, obj, .git, .ironbees and node_modules. Case-insensitive unless caseSensitive is true. ' +
      'The query is literal text unless isRegex is true (then a JavaScript regular expression).',
    input: searchTextInput,
    readonly: true,
    timeoutMs: TOOL_TIMEOUT_MS,
    execute: (input, ctx) => searchText(input, ctx, regexTimeLimitMs),
  };
}

export const searchTextTool: ToolDefinition<SearchTextInput> = createSearchTextTool();

async function searchText(input: SearchTextInput, ctx: ToolContext, regexTimeLimitMs: number): Promise<ToolOutcome> {
  const matcher = buildMatcher(input);
  if (typeof matcher === 'string') return { ok: false, error: matcher };
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, input.path ?? '');
  const kind = await ctx.overlay.kind(rel);
  if (kind === 'missing') return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  const files = kind === 'file' ? [rel] : await ctx.overlay.listFiles(rel, { maxFiles: WALK_LIMIT });
  const prefix = kind === 'file' || rel === '' ? '' : `${rel}/`;
  const pattern = input.filePattern?.trim() ?? '';
  const refused = globProblem(pattern);
  if (refused) return { ok: false, error: `filePattern: ${refused}` };
  const max = Math.min(Math.max(input.maxResults ?? DEFAULT_MAX, 1), MAX_MAX);

  const found = input.isRegex
    ? await regexSearch(input, files, { pattern, prefix, max, timeLimitMs: regexTimeLimitMs }, ctx)
    : await literalSearch(matcher, files, { pattern, prefix, max }, ctx);
  if ('error' in found) return { ok: false, error: found.error };
  const { hits, total, skipped } = found;

  const where = `${displayPath(rel)}${pattern ? ` (files matching ${pattern})` : ''}`;
  if (total === 0)
    return { ok: true, content: `No matches for ${JSON.stringify(input.query)} in ${where}.${regexHint(input)}${notes(skipped, ctx)}` };
  const more =
    total > hits.length
      ? `\n[${total - hits.length} more matches not shown; narrow the query, path or filePattern, or raise maxResults (at most ${MAX_MAX}).]`
      : '';
  return {
    ok: true,
    content: `${total} match(es) for ${JSON.stringify(input.query)} in ${where}:\n${hits.join('\n')}${more}${notes(skipped, ctx)}`,
  };
}

interface Scope {
  pattern: string;
  prefix: string;
  max: number;
}

interface Found {
  hits: string[];
  total: number;
  skipped: number;
}

async function literalSearch(matcher: (line: string) => boolean, files: readonly string[], scope: Scope, ctx: ToolContext): Promise<Found> {
  const found: Found = { hits: [], total: 0, skipped: 0 };
  for (const file of files) {
    if (ctx.signal?.aborted) break;
    if (scope.pattern && !matchesGlob(file.slice(scope.prefix.length), scope.pattern)) continue;
    const text = await readSearchable(ctx, file);
    if (text === null) {
      found.skipped++;
      continue;
    }
    splitLines(text).forEach((line, i) => {
      if (!matcher(line)) return;
      found.total++;
      if (found.hits.length < scope.max) found.hits.push(hitLine({ path: file, line: i + 1, text: line }));
    });
  }
  return found;
}

/** Files are read here and matched in the worker, a batch at a time, within one time budget for the whole search. */
async function regexSearch(
  input: SearchTextInput,
  files: readonly string[],
  scope: Scope & { timeLimitMs: number },
  ctx: ToolContext,
): Promise<Found | { error: string }> {
  const found: Found = { hits: [], total: 0, skipped: 0 };
  const deadline = Date.now() + scope.timeLimitMs;
  let batch: RegexFile[] = [];
  let batchChars = 0;
  const flush = async (): Promise<string | null> => {
    if (batch.length === 0) return null;
    const outcome = await searchLinesInWorker(input.query, input.caseSensitive ? '' : 'i', batch, {
      max: scope.max - found.hits.length,
      timeLimitMs: Math.max(deadline - Date.now(), 1),
      signal: ctx.signal,
    });
    batch = [];
    batchChars = 0;
    if ('stopped' in outcome) {
      if (outcome.stopped === 'aborted') return null;
      return outcome.stopped === 'time-limit'
        ? regexTooSlow(input.query, scope.timeLimitMs)
        : `search_text could not run the regular expression: ${outcome.message}.`;
    }
    found.total += outcome.total;
    found.hits.push(...outcome.hits.map(hitLine));
    return null;
  };
  for (const file of files) {
    if (ctx.signal?.aborted) break;
    if (scope.pattern && !matchesGlob(file.slice(scope.prefix.length), scope.pattern)) continue;
    const text = await readSearchable(ctx, file);
    if (text === null) {
      found.skipped++;
      continue;
    }
    batch.push({ path: file, text });
    batchChars += text.length;
    if (batchChars >= REGEX_BATCH_CHARS) {
      const error = await flush();
      if (error) return { error };
    }
  }
  const error = await flush();
  return error ? { error } : found;
}

function regexTooSlow(query: string, limitMs: number): string {
  return (
    `The regular expression ${JSON.stringify(query)} was stopped after ${limitMs / 1000} s without finishing. ` +
    'It probably backtracks without end (nested quantifiers such as (a+)+ or (.*)*); simplify it, or search for literal text with isRegex false.'
  );
}

/** Regular-expression syntax that literal source text rarely holds: \w \d \s \b, .* .+, a class [a-z], (?, |, a group with a quantifier. */
const REGEX_LOOKING = /\\[wdsbWDSB]|\.[*+?]|\[[^\]]*-[^\]]*\]|\(\?|\||\)[*+?]|^\^|\$$/;

/** Said when a literal search finds nothing for a query that reads like a regular expression. */
export function regexHint(input: SearchTextInput): string {
  if (input.isRegex || !REGEX_LOOKING.test(input.query)) return '';
  return ' The query looks like a regular expression, but it was searched for as literal text: to use it as a regular expression, call search_text again with isRegex: true.';
}

function hitLine(hit: RegexHit): string {
  return `${hit.path}:${hit.line}: ${shorten(hit.text.trim())}`;
}

function buildMatcher(input: SearchTextInput): ((line: string) => boolean) | string {
  const flags = input.caseSensitive ? '' : 'i';
  if (input.isRegex) {
    try {
      // Compiled here only to report a syntax error at once; matching happens in the worker.
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
    const text = await ctx.overlay.read(file, { bulk: true });
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
