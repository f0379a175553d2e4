// Anthropic's text editor tool (text_editor_20250728, named str_replace_based_edit_tool), run
// against the staged overlay. The model is trained on its semantics, so they are kept: `view`
// with `cat -n` numbering and view_range [start, end] (-1 = to the end), `create` (a new file only:
// a file of the workspace is refused, one this attempt created may be written again),
// `str_replace` (exactly one match), `insert` after a line (0 = top). This version has no undo_edit.
// One command is ours, not Anthropic's: `delete` stages a file's removal, so a plan's DELETE step
// is something the coder can do.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../types';
import { insertLines, replaceExactlyOnce } from './edit-ops';
import type { EditOpResult } from './edit-ops';
import { optionalInt, optionalString, parseJsonText, requiredText } from './lenient';
import { displayPath, resolveWorkspacePath } from '../../workspace/paths';
import { listDirectoryTree } from './directory-view';
import { missingPathMessage, numberLines, numberLinesWithin, splitLines } from './text-view';

export const TEXT_EDITOR_TOOL_NAME = 'str_replace_based_edit_tool';

const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete'] as const;
const VIEW_MAX_CHARS = 40_000;
const SNIPPET_CONTEXT = 4;

const textEditorInput = z
  .object({
    command: z.enum(COMMANDS, {
      error: () => `command must be one of ${COMMANDS.join(', ')} (undo_edit does not exist in text_editor_20250728)`,
    }),
    path: requiredText('path', 'a file or folder relative to the workspace root'),
    view_range: z
      .preprocess(
        (v) => (v === null ? undefined : parseJsonText(v)),
        z
          .tuple([z.coerce.number().int(), z.coerce.number().int()], {
            error: 'view_range must be two line numbers [start, end]; use -1 as end to read to the end of the file',
          })
          .optional(),
      )
      .optional(),
    file_text: optionalString('create: the whole content of the file'),
    old_str: optionalString('str_replace: the exact text to replace'),
    new_str: optionalString('str_replace: the replacement; insert: accepted in place of insert_text'),
    insert_line: optionalInt('insert: the line after which to insert (0 = top of the file)'),
    insert_text: optionalString('insert: the text to insert'),
  })
  .superRefine((input, ctx) => {
    const need = (field: string, why: string): void => ctx.addIssue({ code: 'custom', path: [field], message: why });
    if (input.command === 'create' && input.file_text === undefined)
      need('file_text', 'create needs file_text: the full content of the file');
    if (input.command === 'str_replace' && input.old_str === undefined)
      need('old_str', 'str_replace needs old_str: the exact text to replace');
    if (input.command === 'insert') {
      if (input.insert_line === undefined) need('insert_line', 'insert needs insert_line: the line after which to insert (0 = top)');
      if (input.insert_text === undefined && input.new_str === undefined)
        need('insert_text', 'insert needs insert_text: the text to insert');
    }
  });

export type TextEditorInput = z.infer<typeof textEditorInput>;

export const textEditorTool: ToolDefinition<TextEditorInput> = {
  name: TEXT_EDITOR_TOOL_NAME,
  description:
    'View, create and edit workspace files (staged for review; nothing is written to disk until approved). ' +
    'Paths are relative to the workspace root. create makes new files only (an existing file is refused: view it, then str_replace or insert); ' +
    'str_replace needs old_str to match exactly once, whitespace included.',
  input: textEditorInput,
  readonly: false,
  timeoutMs: 30_000,
  anthropicType: 'text_editor_20250728',
  execute: runTextEditor,
};

async function runTextEditor(input: TextEditorInput, ctx: ToolContext): Promise<ToolOutcome> {
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, input.path);
  switch (input.command) {
    case 'view':
      return view(ctx, rel, input.view_range);
    case 'create':
      return create(ctx, rel, input.file_text ?? '');
    case 'str_replace':
      return edit(ctx, rel, (text) => replaceExactlyOnce(text, normalise(input.old_str ?? ''), normalise(input.new_str ?? ''), rel));
    case 'insert':
      return edit(ctx, rel, (text) => insertLines(text, input.insert_line ?? 0, normalise(input.insert_text ?? input.new_str ?? ''), rel));
    case 'delete':
      return remove(ctx, rel);
  }
}

/** Models sometimes send CRLF; the overlay's text is LF and the file's own endings are restored on write. */
function normalise(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

async function view(ctx: ToolContext, rel: string, range: [number, number] | undefined): Promise<ToolOutcome> {
  const text = await ctx.overlay.read(rel);
  if (text === null) {
    if ((await ctx.overlay.kind(rel)) === 'directory') return { ok: true, content: await listDirectoryTree(ctx.overlay, rel) };
    return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  }
  const lines = splitLines(text);
  if (lines.length === 0) return { ok: true, content: `${rel} is empty.` };
  let first = 1;
  let last = lines.length;
  if (range) {
    const [start, end] = range;
    if (start < 1 || start > lines.length) {
      return {
        ok: false,
        error: `view_range start ${start} is outside ${rel}, which has ${lines.length} lines; use a start from 1 to ${lines.length}.`,
      };
    }
    if (end !== -1 && end < start) {
      return {
        ok: false,
        error: `view_range end ${end} is before its start ${start}; use [start, end] with end >= start, or -1 for the end of the file.`,
      };
    }
    first = start;
    last = end === -1 ? lines.length : Math.min(end, lines.length);
  }
  const { text: numbered, shown } = numberLinesWithin(lines.slice(first - 1, last), first, VIEW_MAX_CHARS);
  const shownLast = first + shown - 1;
  const notes: string[] = [];
  if (range && range[1] > lines.length) notes.push(`(${rel} has only ${lines.length} lines.)`);
  if (shownLast < last) {
    notes.push(
      `(Output truncated after line ${shownLast} of ${lines.length}. View the rest with view_range [${shownLast + 1}, ${last === lines.length ? -1 : last}].)`,
    );
  }
  return { ok: true, content: [`Here's the content of ${rel} with line numbers:`, numbered, ...notes].join('\n') };
}

async function create(ctx: ToolContext, rel: string, fileText: string): Promise<ToolOutcome> {
  const kind = await ctx.overlay.kind(rel);
  if (kind === 'directory') return { ok: false, error: `${displayPath(rel)} is a folder; give a file path to create.` };
  // A path that may not be written (a link) is refused as such before anything else is said of it.
  resolveWorkspacePath(ctx.host.workspaceRoot, rel, { forWrite: true });
  // A file of the workspace is changed with str_replace/insert, never rewritten whole: a model that
  // rewrites leaves "// ...existing code..." placeholders and drops what it did not copy.
  const original = await ctx.overlay.original(rel);
  if (original !== null) return { ok: false, kind: 'InvalidInput', error: existingFileMessage(rel, original, kind === 'file') };
  const text = normalise(fileText);
  const before = kind === 'file' ? await ctx.overlay.read(rel) : null;
  await ctx.overlay.write(rel, text);
  if (before === null) return { ok: true, content: `File created successfully at: ${rel}` };
  // A file this attempt created itself may be written again; the line counts show what changed.
  return { ok: true, content: `File overwritten: ${rel} (a new file of this attempt; ${lineCount(before)} → ${lineCount(text)} lines)` };
}

export function existingFileMessage(rel: string, original: string, present: boolean): string {
  const lines = lineCount(original);
  const where = present ? 'already exists' : 'exists in the workspace (you staged its deletion)';
  return (
    `${rel} ${where} (${lines} ${lines === 1 ? 'line' : 'lines'}); create only makes new files and never overwrites one. ` +
    'View it (view, with view_range for a part) and change it with str_replace or insert.'
  );
}

function lineCount(text: string): number {
  return splitLines(text).length;
}

async function remove(ctx: ToolContext, rel: string): Promise<ToolOutcome> {
  resolveWorkspacePath(ctx.host.workspaceRoot, rel, { forWrite: true });
  const text = await ctx.overlay.read(rel);
  if (text === null) {
    if ((await ctx.overlay.kind(rel)) === 'directory')
      return { ok: false, error: `${displayPath(rel)} is a folder; delete removes one file at a time.` };
    return { ok: false, error: await missingPathMessage(ctx.overlay, rel) };
  }
  await ctx.overlay.delete(rel);
  return {
    ok: true,
    content: `File deleted (staged): ${rel} (it had ${lineCount(text)} lines). The person reviews the deletion with the other changes.`,
  };
}

async function edit(ctx: ToolContext, rel: string, operation: (text: string) => EditOpResult): Promise<ToolOutcome> {
  const text = await ctx.overlay.read(rel);
  if (text === null) {
    if ((await ctx.overlay.kind(rel)) === 'directory')
      return { ok: false, error: `${displayPath(rel)} is a folder; give the path of a file.` };
    return { ok: false, error: `${await missingPathMessage(ctx.overlay, rel)} To make a new file, use the create command.` };
  }
  const result = operation(text);
  if (!result.ok) return result;
  await ctx.overlay.write(rel, result.text);
  return { ok: true, content: editedSnippet(rel, result.text, result.firstLine, result.lastLine) };
}

function editedSnippet(rel: string, text: string, firstLine: number, lastLine: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, Math.max(lastLine, firstLine) + SNIPPET_CONTEXT);
  return [
    `The file ${rel} has been edited (staged). Here is the edited part with line numbers:`,
    numberLines(lines.slice(from - 1, to), from),
    'Review the change and make sure it is as expected (indentation, no duplicated lines). Edit again if necessary.',
  ].join('\n');
}
