// The demo model's review. It cannot judge code, so it passes the change (score 10: at any threshold)
// and names one minor issue: the first line the change adds, for the person to read
// themselves. That issue is real data every face shows (the panel links it to file:line, the
// editor puts a comment on that line, the CLI and HANDOFF.md list it), so a demo run shows a review.

import { parsePatch } from 'diff';

export interface DemoReview {
  score: number;
  criticalIssues: Array<{ severity: 'minor'; file: string; line: number; description: string; suggestedFix: string }>;
  suggestions: string[];
}

export function demoReview(reviewerMessage: string, label: string): DemoReview {
  const added = firstAddedLine(reviewerMessage);
  return {
    score: 10,
    criticalIssues: added
      ? [
          {
            severity: 'minor',
            file: added.file,
            line: added.line,
            description: `${label} This line was changed, and I cannot judge code: nobody has reviewed it yet.`,
            suggestedFix: 'Read the change yourself before you keep it.',
          },
        ]
      : [],
    suggestions: [`${label} No review was made: read the diff yourself.`],
  };
}

/** The file and line (from 1) of the first line the run's diff adds, from the reviewer's message. */
export function firstAddedLine(message: string): { file: string; line: number } | null {
  const diff = /```diff\n([\s\S]*?)\n```/.exec(message)?.[1];
  if (!diff) return null;
  let patches: ReturnType<typeof parsePatch>;
  try {
    patches = parsePatch(diff);
  } catch {
    return null;
  }
  for (const patch of patches) {
    const file = patch.newFileName?.replace(/^b\//, '');
    if (!file || file === '/dev/null') continue;
    for (const hunk of patch.hunks) {
      let line = hunk.newStart;
      for (const text of hunk.lines) {
        if (text.startsWith('+')) return { file, line };
        if (text.startsWith(' ')) line += 1;
      }
    }
  }
  return null;
}
