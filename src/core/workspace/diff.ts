// Unified diffs for proposed edits, and partial application when the person rejects some hunks.
// Diffs are computed on the exact file text (BOM and CRLF included), as `git diff` would show them,
// so applying accepted hunks to the original reproduces the proposed bytes exactly.

import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch } from 'diff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import { AgentModeError } from '../errors';
import type { EditType, FileEdit } from '../model';

const CONTEXT_LINES = 3;
/** Past these the Myers diff can take seconds; a whole-file diff is honest and instant. */
const DIFF_TIMEOUT_MS = 1000;
const DIFF_MAX_EDIT_LENGTH = 1000;
const NO_NEWLINE = '\\ No newline at end of file';

export function makeFileEdit(filePath: string, original: string | null, next: string | null): FileEdit {
  const type: EditType = original === null ? 'CREATE' : next === null ? 'DELETE' : 'MODIFY';
  const oldName = original === null ? '/dev/null' : `a/${filePath}`;
  const newName = next === null ? '/dev/null' : `b/${filePath}`;
  const diffText =
    createTwoFilesPatch(oldName, newName, original ?? '', next ?? '', undefined, undefined, {
      context: CONTEXT_LINES,
      timeout: DIFF_TIMEOUT_MS,
      maxEditLength: DIFF_MAX_EDIT_LENGTH,
      headerOptions: FILE_HEADERS_ONLY,
    }) ?? wholeFileDiff(oldName, newName, original ?? '', next ?? '');
  return { filePath, type, originalContent: original, newContent: next, diffText };
}

/** Every old line removed, every new line added: one hunk, always correct, never clever. */
export function wholeFileDiff(oldName: string, newName: string, original: string, next: string): string {
  const oldLines = patchLines(original, '-');
  const newLines = patchLines(next, '+');
  const oldCount = oldLines.filter((l) => l !== NO_NEWLINE).length;
  const newCount = newLines.filter((l) => l !== NO_NEWLINE).length;
  // formatPatch prints an empty side as `-0,0` itself (it subtracts one when the count is 0).
  const hunk: StructuredPatchHunk = {
    oldStart: 1,
    oldLines: oldCount,
    newStart: 1,
    newLines: newCount,
    lines: [...oldLines, ...newLines],
  };
  const patch: StructuredPatch = {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: oldCount + newCount ? [hunk] : [],
  };
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

function patchLines(text: string, prefix: '-' | '+'): string[] {
  if (text === '') return [];
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n').map((l) => prefix + l);
  if (!endsWithNewline) lines.push(NO_NEWLINE);
  return lines;
}

/** The hunks of a unified diff as text, each starting with its `@@` header, in diff order. */
export function splitHunks(diffText: string): string[] {
  return hunksOf(diffText).map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}`);
}

function hunksOf(diffText: string): StructuredPatchHunk[] {
  if (diffText.trim() === '') return [];
  return parsePatch(diffText).flatMap((p) => p.hunks);
}

/**
 * Applies the hunks of `diffText` whose indexes are not in `rejectedHunkIndexes` to `original`.
 * The diff must have been made from `original` (as makeFileEdit does); anything else is a bug.
 */
export function applyAcceptedHunks(original: string, diffText: string, rejectedHunkIndexes: readonly number[]): string {
  const rejected = new Set(rejectedHunkIndexes);
  const hunks = hunksOf(diffText);
  const accepted: StructuredPatchHunk[] = [];
  // Line numbers in later hunks assume every earlier hunk applied; shift them by what was skipped.
  let shift = 0;
  hunks.forEach((hunk, index) => {
    if (rejected.has(index)) {
      shift -= hunk.newLines - hunk.oldLines;
      return;
    }
    accepted.push({ ...hunk, newStart: hunk.newStart + shift });
  });
  if (accepted.length === 0) return original;
  const patch: StructuredPatch = { oldFileName: 'a', newFileName: 'b', oldHeader: undefined, newHeader: undefined, hunks: accepted };
  const result = applyPatch(original, patch, { autoConvertLineEndings: false });
  if (result === false) {
    throw new AgentModeError('The diff does not apply to the original content it was made from', 'DIFF_MISMATCH', {
      hunks: hunks.length,
      rejected: [...rejected],
    });
  }
  return result;
}
