// The `at` argument of find_symbols and find_references: "the symbol at path:line:column". Models
// copy positions from our own output (path:line:column) and from compiler messages
// (path(line,column)); both are read. Without a column, the name given alongside locates it on the
// line, because a model reading numbered lines knows the line but rarely counts columns.

import type { SourcePosition } from '../host';
import type { ToolContext } from './types';
import { resolveWorkspacePath } from '../workspace/paths';
import { missingPathMessage, splitLines } from './workspace/text-view';
import { blankNonCode } from '../csharp/lexer';
import { columnOf } from '../csharp/position';

export const AT_DESCRIPTION =
  'The symbol at a place in a file, as "path:line:column" (1-based, as find_symbols, find_references and read_file show them), ' +
  'e.g. "src/App/Program.cs:12:17". "path:line" works when the name is given too.';

const POSITION = /^(.+?)(?::(\d+)(?::(\d+))?|\((\d+)(?:,(\d+))?\))$/;

/** A position inside the workspace, or a message that says how to fix `at`. */
export async function resolvePosition(at: string, name: string | undefined, ctx: ToolContext): Promise<SourcePosition | string> {
  const parsed = POSITION.exec(at.trim());
  if (!parsed) return `at ${JSON.stringify(at)} is not a position; write "path:line:column", e.g. "src/App/Program.cs:12:17".`;
  const line = Number(parsed[2] ?? parsed[4]);
  const givenColumn = parsed[3] ?? parsed[5];
  const { rel } = resolveWorkspacePath(ctx.host.workspaceRoot, parsed[1]);
  // Through the overlay: the line numbers the model has seen come from read_file, which shows staged edits.
  const text = await ctx.overlay.read(rel);
  if (text === null) return missingPathMessage(ctx.overlay, rel);
  const lines = splitLines(text);
  if (line < 1 || line > lines.length) return `${rel} has ${lines.length} line(s); line ${line} is not one of them.`;
  if (givenColumn !== undefined) return { filePath: rel, line, column: Math.max(1, Number(givenColumn)) };
  const wanted = name?.trim().split('.').pop()?.replace(/^@/, '');
  if (!wanted) return `at ${JSON.stringify(at)} has no column; add it ("${rel}:${line}:COLUMN") or give the symbol's name too.`;
  const codeLine = splitLines(blankNonCode(text))[line - 1] ?? '';
  const column = columnOf(codeLine, wanted);
  if (column === null)
    return `${JSON.stringify(wanted)} is not on line ${line} of ${rel} (outside comments and strings): ${lines[line - 1].trim().slice(0, 200)}`;
  return { filePath: rel, line, column };
}

export function formatPosition(at: SourcePosition): string {
  return `${at.filePath}:${at.line}:${at.column}`;
}
