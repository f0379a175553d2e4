// Long results are paged, never cut silently: the first page says how much there is and how to get
// the next one (`resultPage`), and the whole text is kept for a while so a page of a tool with side
// effects never means running it again.

import type { Observation } from './types';

/** Every custom tool accepts this extra argument; the adapter takes it out before the tool's own schema sees the input. */
export const PAGE_ARGUMENT = 'resultPage';
export const DEFAULT_MAX_PAYLOAD_CHARS = 100_000;
const KEPT_RESULTS = 16;

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
}

export function pageOf(toolName: string, args: unknown, full: string, page: number, pageSize: number): Paged {
  const pages = Math.max(1, Math.ceil(full.length / pageSize));
  const index = Math.min(page, pages);
  const start = (index - 1) * pageSize;
  const slice = full.slice(start, start + pageSize);
  if (pages === 1) return { content: slice, page: 1, pages, truncated: false };
  const nextArgs = JSON.stringify({ ...(isRecord(args) ? args : {}), [PAGE_ARGUMENT]: index + 1 });
  const note =
    index < pages
      ? `[Result truncated: page ${index} of ${pages} (characters ${start + 1}–${start + slice.length} of ${full.length}). ` +
        `Next page: call ${toolName} again with ${nextArgs}; or ask for less (a narrower query or range).]`
      : `[Last page: page ${index} of ${pages} (characters ${start + 1}–${start + slice.length} of ${full.length}).]`;
  return { content: `${slice}\n${note}`, page: index, pages, truncated: true };
}

export function pageAffordances(toolName: string, paged: Paged): string[] {
  if (!paged.truncated || paged.page >= paged.pages) return [];
  return [`next_page: call ${toolName} again with the same arguments and ${PAGE_ARGUMENT}: ${paged.page + 1}`];
}

/** A small LRU of full results by tool and arguments. */
export class ResultPages {
  private readonly kept = new Map<string, string>();

  static key(toolName: string, args: unknown): string {
    return `${toolName}\u0000${canonicalJson(args)}`;
  }

  get(key: string): string | undefined {
    const value = this.kept.get(key);
    if (value !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, value);
    }
    return value;
  }

  set(key: string, full: string): void {
    this.kept.delete(key);
    this.kept.set(key, full);
    while (this.kept.size > KEPT_RESULTS) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** Derived when a tool gives none: the first line as the summary, paging and size as facts. */
export function observationFor(content: string, paged: Paged, given: Observation | undefined, affordances: string[]): Observation {
  const firstLine = content.split('\n', 1)[0].trim();
  const summary = given?.summary ?? (firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine || '(empty result)');
  const facts: Observation['keyFacts'] = { ...(given?.keyFacts ?? {}) };
  if (paged.truncated) Object.assign(facts, { page: paged.page, pages: paged.pages });
  return { summary, keyFacts: facts, affordances: [...(given?.affordances ?? []), ...affordances] };
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
