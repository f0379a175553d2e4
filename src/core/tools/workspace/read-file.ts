// read_file: a page of a file with line numbers. Pages are bounded in lines and characters so one
// large generated file cannot flood the context; the result says how to fetch the next page.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { optionalInt, requiredText } from './lenient';
import { displayPath, resolveWorkspacePath } from '../../workspace/paths';
import { FileTooLargeError, NotRegularFileError } from '../../errors';
import { MAX_STREAMED_FILE_BYTES } from '../../workspace/overlay';
import { pageFromStream } from './page-stream';
import { missingPathMessage, numberLinesWithin, splitLines } from './text-view';

const DEFAULT_LIMIT = 400;
const MAX_LIMIT = 2000;
const MAX_CHARS = 40_000;

const readFileInput = z.object({
  path: requiredText('path', 'a file relative to the workspace root').describe('File path relative to the workspace root'),
  offset: optionalInt('First line to show, 1-based (default 1)'),
  limit: optionalInt(`How many lines to show (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`),
});
export type ReadFileInput = z.infer<typeof readFileInput>;

export const readFileTool: ToolDefinition<ReadFileInput> = {
  name: 'read_file',
  description:
    'Read a file of the workspace, with line numbers. Shows staged (not yet applied) edits. ' +
    `Returns at most ${DEFAULT_LIMIT} lines unless limit says otherwise; use offset to page through long files.`,
  input: readFileInput,
  readonly: true,
  timeoutMs: 15_000,
  execute: readFile,
};

async function readFile(input: ReadFileInput, ctx: ToolContext): Promise<ToolOutcome> {
  const { rel, abs } = resolveWorkspacePath(ctx.host.workspaceRoot, input.path);
  let text: string | null;
  try {
    text = await ctx.overlay.read(rel);
  } catch (error) {
    // Too big to hold as text, not too big to page through: read as a stream, only the page kept.
    if (error instanceof FileTooLargeError && error.size <= MAX_STREAMED_FILE_BYTES && ctx.host.fs.readChunks)
      return streamedPage(input, ctx, rel, abs);
    // Refused before reading (far too big; a FIFO, socket or device): said with the path the model gave.
    if (error instanceof FileTooLargeError)
      return { ok: false, error: new FileTooLargeError(displayPath(rel), error.size, MAX_STREAMED_FILE_BYTES).message };
    if (error instanceof NotRegularFileError) return { ok: false, error: error.message.replace(error.filePath, displayPath(rel)) };
    throw error;
  }
  if (text === null) {
    if ((await ctx.overlay.kind(rel)) === 'directory') {
      return { ok: false, error: `${displayPath(rel)} is a folder, not a file; use list_files to see what it holds.` };
    }
    return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  }
  const lines = splitLines(text);
  if (lines.length === 0) return { ok: true, content: `${rel} is empty (0 lines).` };
  const offset = input.offset ?? 1;
  if (offset < 1 || offset > lines.length) {
    return {
      ok: false,
      error: `offset ${offset} is outside ${rel}, which has ${lines.length} lines; use an offset from 1 to ${lines.length}.`,
    };
  }
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  const page = lines.slice(offset - 1, offset - 1 + limit);
  const { text: numbered, shown } = numberLinesWithin(page, offset, MAX_CHARS);
  const last = offset + shown - 1;
  const header = `${rel} (lines ${offset}-${last} of ${lines.length})`;
  const footer =
    last < lines.length
      ? `\n[Truncated: showing lines ${offset}-${last} of ${lines.length}. Call read_file with offset=${last + 1} for the next page.]`
      : '';
  return { ok: true, content: `${header}\n${numbered}${footer}` };
}

async function streamedPage(input: ReadFileInput, ctx: ToolContext, rel: string, abs: string): Promise<ToolOutcome> {
  const chunks = await ctx.host.fs.readChunks?.(abs);
  if (!chunks) return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  const offset = input.offset ?? 1;
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  const { lines: page, total } = await pageFromStream(chunks, rel, offset, limit, MAX_CHARS);
  if (offset < 1 || offset > total) {
    return { ok: false, error: `offset ${offset} is outside ${rel}, which has ${total} lines; use an offset from 1 to ${total}.` };
  }
  const { text: numbered, shown } = numberLinesWithin(page, offset, MAX_CHARS);
  const last = offset + shown - 1;
  const footer =
    last < total
      ? `\n[Truncated: showing lines ${offset}-${last} of ${total}. Call read_file with offset=${last + 1} for the next page.]`
      : '';
  return { ok: true, content: `${rel} (lines ${offset}-${last} of ${total})\n${numbered}${footer}` };
}
