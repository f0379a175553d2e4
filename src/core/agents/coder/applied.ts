// What a retry is told first: the changes of earlier attempts that are already in the workspace,
// as files and a capped diff, so the coder does not add them a second time (duplicate members).

/** An earlier attempt's applied change (the workflow's attempt record, as much as the coder needs). */
export interface AppliedChange {
  iteration: number;
  files: string[];
  /** Unified diff, already capped by the workflow. */
  diff: string;
}

export const MAX_APPLIED_DIFF_CHARS = 6_000;

export function appliedSection(applied: readonly AppliedChange[]): string | null {
  if (applied.length === 0) return null;
  const files = [...new Set(applied.flatMap((change) => change.files))].sort();
  const diff = applied
    .map((change) => change.diff.trimEnd())
    .filter((d) => d !== '')
    .join('\n');
  const shown =
    diff.length > MAX_APPLIED_DIFF_CHARS
      ? `${diff.slice(0, MAX_APPLIED_DIFF_CHARS)}\n… ${diff.length - MAX_APPLIED_DIFF_CHARS} more characters of diff not shown`
      : diff;
  return [
    '# Already applied (in the workspace now)',
    '',
    `Your earlier attempts changed ${files.join(', ')}; these changes are on disk, and what you view includes them. Do not add them again.`,
    ...(shown ? ['', '```diff', shown, '```'] : []),
  ].join('\n');
}
