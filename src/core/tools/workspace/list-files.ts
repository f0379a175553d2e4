// list_files: the files under a folder, optionally filtered by a glob, bounded, through the overlay
// so files the coder created (and not those it deleted) show up.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { globProblem, matchesGlob } from '../../workspace/glob';
import { optionalInt, optionalString } from './lenient';
import { displayPath, resolveWorkspacePath } from '../../workspace/paths';
import { missingPathMessage } from './text-view';

const DEFAULT_MAX = 200;
const MAX_MAX = 2000;
/** How far the walk goes before filtering: patterns may match few of many files. */
const WALK_LIMIT = 20_000;

const listFilesInput = z.object({
  path: optionalString('Folder relative to the workspace root (default: the root)'),
  pattern: optionalString('Glob to filter by, e.g. "**/*.cs" or "*Tests.cs" (a pattern without "/" matches file names anywhere)'),
  maxResults: optionalInt(`At most this many paths (default ${DEFAULT_MAX}, at most ${MAX_MAX})`),
});
export type ListFilesInput = z.infer<typeof listFilesInput>;

export const listFilesTool: ToolDefinition<ListFilesInput> = {
  name: 'list_files',
  description:
    'List files of the workspace (relative paths), skipping bin, obj, .git, .ironbees, node_modules and .vs. ' +
    'Filter with a glob pattern such as "**/*.csproj".',
  input: listFilesInput,
  readonly: true,
  timeoutMs: 20_000,
  execute: listFiles,
};

async function listFiles(input: ListFilesInput, ctx: ToolContext): Promise<ToolOutcome> {
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, input.path ?? '');
  const kind = await ctx.overlay.kind(rel);
  if (kind === 'missing') return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  if (kind === 'file') return { ok: true, content: rel };
  const max = Math.min(Math.max(input.maxResults ?? DEFAULT_MAX, 1), MAX_MAX);
  const prefix = rel === '' ? '' : `${rel}/`;
  const pattern = input.pattern?.trim() ?? '';
  const refused = globProblem(pattern);
  if (refused) return { ok: false, error: `pattern: ${refused}` };
  const all = await ctx.overlay.listFiles(rel, { maxFiles: WALK_LIMIT });
  const matching = pattern ? all.filter((f) => matchesGlob(f.slice(prefix.length), pattern)) : all;
  const where = `${displayPath(rel)}${pattern ? ` matching ${pattern}` : ''}`;
  if (matching.length === 0) {
    return { ok: true, content: `No files in ${where}.${pattern ? ' Try a broader pattern, e.g. "**/*.cs".' : ''}` };
  }
  const shown = matching.slice(0, max);
  const lines = [`${matching.length} file(s) in ${where}:`, ...shown];
  if (matching.length > shown.length) {
    lines.push(
      `[${matching.length - shown.length} more not shown; narrow with path or pattern, or raise maxResults (at most ${MAX_MAX}).]`,
    );
  }
  if (all.length >= WALK_LIMIT) lines.push(`[The walk stopped at ${WALK_LIMIT} files; give a narrower path.]`);
  return { ok: true, content: lines.join('\n') };
}
