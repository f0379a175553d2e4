// Long results are paged, never cut silently: the first page says how much there is and how to get
// the next one (`resultPage`), and the whole text is kept for a while so a page of a tool with side
// effects never means running it again. Kept results expire, so a later run never reads a page of a
// result that the workspace has moved on from.

import type { Observation, ToolOutcome } from './types';

/** Every custom tool accepts this extra argument; the adapter takes it out before the tool's own schema sees the input. */
export const PAGE_ARGUMENT = 'resultPage';
export const DEFAULT_MAX_PAYLOAD_CHARS = 100_000;
const KEPT_RESULTS = 16;
/** Long enough to read a result page by page within a run; a run's later turns ask again. */
export const KEPT_RESULT_TTL_MS = 10 * 60_000;

export const PAGE_ARGUMENT_SCHEMA = {
  type: 'integer',
  minimum: 1,
  description: 'Page of a long result to show (1-based); only when an earlier result said it continues.',
} as const;

export function splitPageArgument(raw: unknown): { input: unknown; page: number } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !(PAGE_ARGUMENT in raw)) return { input: raw, page: 1 };
  const { [PAGE_ARGUMENT]: pageValue, ...rest } = raw as Record<string, unknown>;
  const page = Number(pageValue);
  return { input: rest, page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

export interface Paged {
  content: string;
  page: number;
  pages: number;
  truncated: boolean;
  /** `call <tool> again with {...}` for the next page; the note and the affordance say it the same way. */
  nextCall?: string;
}

export function pageOf(toolName: string, args: unknown, full: string, page: number, pageSize: number): Paged {
  const pages = Math.max(1, Math.ceil(full.length / pageSize));
  const index = Math.min(page, pages);
  const start = (index - 1) * pageSize;
  const slice = full.slice(start, start + pageSize);
  if (pages === 1) return { content: slice, page: 1, pages, truncated: false };
  const nextCall =
    index < pages
      ? `call ${toolName} again with ${JSON.stringify({ ...(isRecord(args) ? args : {}), [PAGE_ARGUMENT]: index + 1 })}`
      : undefined;
  const note = nextCall
    ? `[Result truncated: page ${index} of ${pages} (characters ${start + 1}–${start + slice.length} of ${full.length}). ` +
      `Next page: ${nextCall}; or ask for less (a narrower query or range).]`
    : `[Last page: page ${index} of ${pages} (characters ${start + 1}–${start + slice.length} of ${full.length}).]`;
  return { content: `${slice}\n${note}`, page: index, pages, truncated: true, ...(nextCall ? { nextCall } : {}) };
}

export function pageAffordances(paged: Paged): string[] {
  return paged.nextCall ? [`next_page: ${paged.nextCall}`] : [];
}

/** A small LRU of full results by tool and arguments, each kept for `ttlMs` at most. */
export class ResultPages {
  private readonly kept = new Map<string, { full: string; at: number }>();

  constructor(
    private readonly ttlMs = KEPT_RESULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  static key(toolName: string, args: unknown): string {
    return `${toolName}\u0000${canonicalJson(args)}`;
  }

  get(key: string): string | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    this.kept.delete(key);
    if (this.now() - entry.at > this.ttlMs) return undefined;
    this.kept.set(key, entry);
    return entry.full;
  }

  set(key: string, full: string): void {
    this.kept.delete(key);
    this.kept.set(key, { full, at: this.now() });
    while (this.kept.size > KEPT_RESULTS) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** Derived when a tool gives none: the first line as the summary, paging and size as facts. */
export function observationFor(content: string, paged: Paged, given: Observation | undefined, affordances: string[]): Observation {
  // The first line with text, so a result that starts with blank lines still has a summary the content begins with.
  const firstLine = (/\S[^\n]*/.exec(content)?.[0] ?? '').trim();
  const summary = given?.summary ?? (firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine || '(empty result)');
  const facts: Observation['keyFacts'] = { ...(given?.keyFacts ?? {}) };
  if (paged.truncated) Object.assign(facts, { page: paged.page, pages: paged.pages });
  return { summary, keyFacts: facts, affordances: [...(given?.affordances ?? []), ...affordances] };
}

/**
 * The text the model reads for one call. A failure leads with its kind ("[Timeout] ..."), so the
 * model can tell "wait and retry" from "fix the arguments". A success is its content plus only what
 * the content does not already say: a tool's own summary and facts, and affordances the page note
 * does not already spell out. An ordinary result gets nothing added.
 */
export function renderForModel(outcome: ToolOutcome): string {
  if (!outcome.ok) {
    const wait =
      outcome.kind === 'RateLimited' && outcome.retryAfterMs !== undefined
        ? ` (the server asks to wait ${formatWait(outcome.retryAfterMs)} before trying again)`
        : '';
    return `[${outcome.kind ?? 'ToolBug'}] ${outcome.error}${wait}`;
  }
  const { content, observation } = outcome;
  if (!observation) return content;
  const before: string[] = [];
  const summary = observation.summary.replace(/\u2026$/, '');
  if (content.trim() === '' || !content.trimStart().startsWith(summary)) before.push(`Summary: ${observation.summary}`);
  // page/pages come from paging, and the page note in the content already says them.
  const facts = Object.entries(observation.keyFacts).filter(([key]) => !(key === 'page' || key === 'pages'));
  if (facts.length > 0) before.push(`Key facts: ${facts.map(([key, value]) => `${key}=${String(value)}`).join(', ')}`);
  const after = observation.affordances.filter((affordance) => !content.includes(affordance.slice(affordance.indexOf(':') + 1).trim()));
  const body = content.trim() === '' ? [] : before.length > 0 ? ['', content] : [content];
  const lines = [...before, ...body];
  if (after.length > 0) lines.push(`[Next: ${after.join('; ')}]`);
  return lines.join('\n');
}

function formatWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.ceil(ms / 1000)} s`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
