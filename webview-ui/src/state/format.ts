// Small formatters shared by the panel's sections. Pure, so they are unit-tested without a DOM.

import type { Usage, WorkflowNode } from '../../../src/core/model';
import { NODE_TABLE } from '../../../src/core/nodes';

/** The node's step name on the timeline, from the node table (a node it does not know: its id). */
export function nodeLabel(node: WorkflowNode): string {
  return (NODE_TABLE as Partial<Record<string, { step: string }>>)[node]?.step ?? node;
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatTokens(count: number): string {
  if (!Number.isFinite(count) || count < 0) return '0';
  if (count < 1000) return String(Math.round(count));
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(1))}k`;
  return `${trimZero((count / 1_000_000).toFixed(1))}M`;
}

/** Dollars with enough digits that a cheap run does not read as free. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatUsage(usage: Usage): string {
  const cached = usage.cacheReadTokens + usage.cacheWriteTokens;
  const cache = cached > 0 ? ` · cache ${formatTokens(cached)}` : '';
  return `${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.outputTokens)} out${cache} · ${usage.costUnknown ? 'cost unknown' : formatCost(usage.costUsd)}`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trimZero((ms / 1000).toFixed(1))} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Lines added and removed in a unified diff, not counting the `---`/`+++` file headers. */
export function diffStats(diffText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diffText.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** The last path segment, for compact lists where the full path goes in a tooltip. */
export function baseName(filePath: string): string {
  const parts = filePath.split(/[\\/]/);
  return parts[parts.length - 1] || filePath;
}

/** ISO timestamp → a short local "YYYY-MM-DD HH:MM"; the raw text when it does not parse. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
