// Turns the person's per-file and per-hunk verdicts into the edits that are applied, and into an
// honest account for the coder of what was rejected and why.

import type { FileDecision, FileEdit } from '../model';
import { applyAcceptedHunks, makeFileEdit, splitHunks } from '../workspace/diff';

function decisionFor(files: readonly FileDecision[] | undefined, filePath: string): FileDecision | undefined {
  return files?.find((f) => f.filePath === filePath);
}

/** The rejected hunks that exist, each once, in order: a hunk named twice is still one hunk. */
function rejectedHunksOf(decision: FileDecision, hunkCount: number): number[] {
  const valid = (decision.rejectedHunks ?? []).filter((i) => Number.isInteger(i) && i >= 0 && i < hunkCount);
  return [...new Set(valid)].sort((a, b) => a - b);
}

/** The edits to apply. Files without a decision are accepted whole. */
export function applyFileDecisions(diffs: readonly FileEdit[], files: readonly FileDecision[] | undefined): FileEdit[] {
  const accepted: FileEdit[] = [];
  for (const diff of diffs) {
    const decision = decisionFor(files, diff.filePath);
    if (!decision) {
      accepted.push(diff);
      continue;
    }
    if (!decision.accepted) continue;
    const hunkCount = splitHunks(diff.diffText).length;
    const rejected = rejectedHunksOf(decision, hunkCount);
    if (rejected.length === 0) {
      accepted.push(diff);
      continue;
    }
    // A deletion is one decision: it cannot be half applied.
    if (diff.type === 'DELETE') continue;
    if (rejected.length >= hunkCount) continue;
    const original = diff.originalContent ?? '';
    const partial = applyAcceptedHunks(original, diff.diffText, rejected);
    if (partial === original && diff.type === 'MODIFY') continue;
    accepted.push(makeFileEdit(diff.filePath, diff.originalContent, partial));
  }
  return accepted;
}

/** Why one hunk was rejected: its own reason, else the file's. */
function hunkReason(decision: FileDecision, index: number): string | undefined {
  const own = decision.hunkReasons?.[index];
  return typeof own === 'string' && own.trim() ? own.trim() : decision.reason;
}

function because(reason: string | undefined): string {
  return reason ? ` Reason: ${reason}` : '';
}

/** What the person rejected, for the coder; null when nothing was. `files` undefined means all rejected. */
export function describeRejectedDiffs(diffs: readonly FileEdit[], files: readonly FileDecision[] | undefined): string | null {
  const lines: string[] = [];
  for (const diff of diffs) {
    if (files === undefined) {
      lines.push(`- ${diff.filePath}: the whole change was rejected`);
      continue;
    }
    const decision = decisionFor(files, diff.filePath);
    if (!decision) continue;
    const hunks = splitHunks(diff.diffText);
    const header = (index: number): string => hunks[index].split('\n')[0];
    if (!decision.accepted) {
      lines.push(`- ${diff.filePath}: the whole file was rejected and not applied.${because(decision.reason)}`);
      // Rejected hunk by hunk, each with its own reason: the coder hears every one of them.
      const reasoned = Object.keys(decision.hunkReasons ?? {})
        .map(Number)
        .filter((i) => Number.isInteger(i) && i >= 0 && i < hunks.length);
      for (const index of reasoned.sort((a, b) => a - b)) {
        const own = decision.hunkReasons?.[index];
        if (typeof own === 'string' && own.trim()) lines.push(`  - hunk ${index + 1} (${header(index)}): ${own.trim()}`);
      }
      continue;
    }
    const rejected = rejectedHunksOf(decision, hunks.length);
    // Mirrors applyFileDecisions: any rejected hunk of a deletion keeps the whole file.
    if (diff.type === 'DELETE' && rejected.length > 0) {
      lines.push(`- ${diff.filePath}: the deletion was rejected; the file was kept.${because(hunkReason(decision, rejected[0]))}`);
      continue;
    }
    for (const index of rejected) {
      lines.push(
        `- ${diff.filePath}: hunk ${index + 1} (${header(index)}) was rejected and not applied.${because(hunkReason(decision, index))}`,
      );
    }
  }
  return lines.length ? `The person reviewed your changes:\n${lines.join('\n')}` : null;
}

/**
 * Why a person's per-file verdicts cannot be applied to these diffs, or null when they can. A
 * verdict about a file that was not proposed (a typo) would otherwise be ignored, and files not
 * named are accepted: the file the person meant to reject would be written.
 */
export function problemWithFileDecisions(diffs: readonly FileEdit[], files: readonly FileDecision[] | undefined): string | null {
  const proposed = diffs.map((d) => d.filePath);
  for (const decision of files ?? []) {
    const diff = diffs.find((d) => d.filePath === decision.filePath);
    if (!diff) {
      return `"${decision.filePath}" is not among the proposed files (${proposed.join(', ') || 'none'})`;
    }
    const hunkCount = splitHunks(diff.diffText).length;
    const bad = (decision.rejectedHunks ?? []).filter((i) => !Number.isInteger(i) || i < 0 || i >= hunkCount);
    if (bad.length) {
      return `${decision.filePath} has ${hunkCount} hunk(s), numbered from 0; there is no hunk ${bad.join(', ')}`;
    }
  }
  return null;
}
