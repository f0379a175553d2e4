// The editor's `view` on a folder: files and folders up to two levels deep, hidden ones left out,
// as Anthropic's reference implementation does, but through the overlay so staged files show.

import type { StagedOverlay } from '../../workspace/overlay';
import { displayPath } from '../../workspace/paths';

const MAX_DEPTH = 2;
const MAX_ENTRIES = 400;

export async function listDirectoryTree(overlay: StagedOverlay, rel: string): Promise<string> {
  const files = await overlay.listFiles(rel, { maxFiles: 20_000 });
  const prefix = rel === '' ? '' : `${rel}/`;
  const entries = new Set<string>();
  for (const file of files) {
    const parts = file.slice(prefix.length).split('/');
    if (parts.some((p) => p.startsWith('.'))) continue;
    for (let depth = 1; depth <= Math.min(parts.length, MAX_DEPTH); depth++) {
      const isFolder = depth < parts.length;
      entries.add(prefix + parts.slice(0, depth).join('/') + (isFolder ? '/' : ''));
    }
  }
  const sorted = [...entries].sort();
  const shown = sorted.slice(0, MAX_ENTRIES);
  const header = `Files and folders up to ${MAX_DEPTH} levels deep in ${displayPath(rel)}, hidden items and build output excluded:`;
  const lines = [header, ...shown];
  if (sorted.length === 0) lines.push('(empty)');
  if (sorted.length > shown.length) {
    lines.push(`(${sorted.length - shown.length} more entries not shown; view a subfolder or use list_files with a pattern.)`);
  }
  return lines.join('\n');
}
