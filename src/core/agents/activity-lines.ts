// Each tool call as one line a person reads at a glance — `read src/X.cs lines 1–40 of 120`,
// `searched "Total" in *.cs — 3 matches`, `5 references to Warehouse.TotalValue` — with its outcome.
// One small formatter per tool, reading the model's input and the tool's own first line (the tools'
// answers lead with what was found); any other tool (an MCP tool) says its name and its first line.

import type { ToolOutcome } from '../tools/types';
import { ACTIVITY_LIMITS } from '../activity';
import { redact } from '../redact';
import { clip } from '../platform/text';

type Input = Record<string, unknown>;
type Formatter = (input: Input, outcome: ToolOutcome & { ok: true }) => string;

const FORMATTERS: Record<string, Formatter> = {
  read_file: (input, outcome) => {
    const range = /\(lines (\d+)-(\d+) of (\d+)\)/.exec(firstLine(outcome.content));
    const where = quotePath(input.path);
    if (range) return `read ${where} lines ${range[1]}–${range[2]} of ${range[3]}`;
    return /is empty/.test(outcome.content) ? `read ${where} (empty)` : `read ${where}`;
  },
  search_text: (input, outcome) => {
    const total = countIn(outcome.content, /^(\d+) match\(es\)/m, /^No matches/m);
    return `searched ${quote(input.query)}${input.isRegex === true ? ' (regex)' : ''} in ${scope(input.path, input.filePattern)} — ${plural(total, 'match', 'matches')}`;
  },
  list_files: (input, outcome) => {
    const total = countIn(outcome.content, /^(\d+) file\(s\)/m, /^No files/m);
    return `listed ${scope(input.path, input.pattern)} — ${total === null ? '1 file' : plural(total, 'file', 'files')}`;
  },
  find_references: (input, outcome) => {
    const total = countIn(outcome.content, /^(\d+) reference\(s\)/m, /^No references/m);
    const what = text(input.symbol) || `the symbol at ${text(input.at)}`;
    return `${plural(total, 'reference', 'references')} to ${what}`;
  },
  find_symbols: (input, outcome) => {
    if (text(input.file)) return `outlined ${quotePath(input.file)}`;
    if (text(input.at)) return `looked up the symbol at ${text(input.at)}`;
    const total = countIn(outcome.content, /^(\d+) (?:\w+ )?symbol\(s\)/m, /^No (?:\w+ )?symbols/m);
    return `found ${plural(total, 'symbol', 'symbols')} matching ${quote(input.query ?? '')}`;
  },
  str_replace_based_edit_tool: (input) => {
    const where = quotePath(input.path);
    switch (input.command) {
      case 'view':
        return `viewed ${where}`;
      case 'create':
        return `wrote ${where} (staged)`;
      case 'str_replace':
        return `edited ${where} (staged)`;
      case 'insert':
        return `inserted into ${where} after line ${text(input.insert_line) || '?'} (staged)`;
      case 'delete':
        return `deleted ${where} (staged)`;
      case 'undo_edit':
        return `undid the last edit of ${where}`;
      default:
        return `${text(input.command) || 'used the editor on'} ${where}`;
    }
  },
  check_code: (_input, outcome) => `checked the staged code — ${firstLine(outcome.content)}`,
  submit_plan: () => 'submitted the plan',
  submit_changes: () => 'submitted the changes',
};

/** The line for one tool call; `outcome` is the tool's answer before it is rendered for the model. */
export function describeToolCall(tool: string, rawInput: unknown, outcome: ToolOutcome): string {
  const input: Input = rawInput && typeof rawInput === 'object' && !Array.isArray(rawInput) ? (rawInput as Input) : {};
  const formatter = Object.hasOwn(FORMATTERS, tool) ? FORMATTERS[tool] : undefined;
  if (!outcome.ok) return clipLine(`${tool}${subject(input)} — failed: ${firstSentence(outcome.error)}`);
  return clipLine(formatter ? formatter(input, outcome) : `${tool} — ${firstLine(outcome.content) || 'done'}`);
}

/**
 * What an expanded tool line shows: the model's arguments (JSON) and the tool's answer or error, each
 * clipped to half the room, secrets masked. Only shown, never parsed or run.
 */
export function describeToolDetail(rawInput: unknown, outcome: ToolOutcome): string {
  const half = Math.floor(ACTIVITY_LIMITS.detailChars / 2) - 20;
  const args = clip(JSON.stringify(rawInput ?? {}, null, 2) ?? '{}', half);
  const answer = clip(outcome.ok ? outcome.content : outcome.error, half);
  return redact(`Arguments:\n${args}\n\n${outcome.ok ? 'Result' : 'Error'}:\n${answer || '(empty)'}`);
}

/** The total a tool's first lines state (`3 match(es)`), 0 when they say none, null when neither. */
function countIn(content: string, counted: RegExp, none: RegExp): number | null {
  const match = counted.exec(content);
  if (match) return Number(match[1]);
  return none.test(content) ? 0 : null;
}

function plural(count: number | null, one: string, many: string): string {
  if (count === null) return many;
  return `${count} ${count === 1 ? one : many}`;
}

function scope(path: unknown, pattern: unknown): string {
  const where = text(path);
  const glob = text(pattern);
  if (where && glob) return `${where}/${glob}`;
  return glob || where || 'the workspace';
}

/** What a failed call was about, for its line: the path or the query, when the input has one. */
function subject(input: Input): string {
  const about = text(input.path) || text(input.query) || text(input.symbol);
  return about ? ` ${about}` : '';
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

function quote(value: unknown): string {
  return JSON.stringify(text(value).slice(0, 80));
}

function quotePath(value: unknown): string {
  return text(value) || '(no path)';
}

function firstLine(value: string): string {
  return (value.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

/** An error's first sentence: what went wrong; the how-to-fix that follows is for the model. */
function firstSentence(value: string): string {
  const line = firstLine(value);
  return /^(.*?[.!?])\s+[A-Z]/.exec(line)?.[1] ?? line;
}

function clipLine(line: string): string {
  return clip(line, ACTIVITY_LIMITS.lineChars);
}
