// The live activity list of the panel, put together from `activity` messages: a reset replaces the
// list, any other message adds its entries or replaces those with the same id. Pure: unit-tested.

import type { ActivityEntry, ActivityMessage } from '../../../src/shared/protocol';

export interface PanelActivity {
  runId: string;
  entries: ActivityEntry[];
}

export function applyActivity(current: PanelActivity | null, message: ActivityMessage): PanelActivity {
  if (message.reset || !current || current.runId !== message.runId) return { runId: message.runId, entries: [...message.entries] };
  const entries = [...current.entries];
  for (const entry of message.entries) {
    const index = entries.findIndex((candidate) => candidate.id === entry.id);
    if (index >= 0) entries[index] = entry;
    else entries.push(entry);
  }
  return { runId: current.runId, entries };
}

/** The whole text an activity line opens to: a tool call's detail, a finished turn's words when its line cuts or folds them. */
export function expandedText(entry: ActivityEntry): string | null {
  if (entry.kind === 'tool') return entry.detail || null;
  if (!entry.done) return null;
  return foldedWords(entry.text) === entry.text ? null : entry.text;
}

/** A finished turn's words on one line (the whole text opens below it). */
export function foldedWords(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
