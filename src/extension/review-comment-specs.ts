// What the editor shows of a code review, worked out without the editor: one comment thread per
// issue that names a file inside the workspace, at the issue's line, with a Markdown body in which
// every character the model wrote is escaped (shown, never rendered as links, HTML or commands).
// review-comments.ts puts these on the files; this part is plain data so it is tested in Node.

import type { ReviewIssue, ReviewResult, ReviewSeverity } from '../core/model';
import { resolveWorkspacePath } from '../core/workspace/paths';

export interface ReviewCommentSpec {
  /** Workspace-relative with forward slashes, as the containment check returns it. */
  path: string;
  /** The line the thread sits on, from 0 (the issue's line − 1; the first line when it names none). */
  line: number;
  severity: ReviewSeverity;
  /** The thread's title: the severity and the review's score. */
  label: string;
  /** Markdown: the severity, the description and the suggested fix, the last two escaped. */
  body: string;
  /** Minor issues start folded; critical and major ones open. */
  collapsed: boolean;
}

const SEVERITY_WORDS: Record<ReviewSeverity, string> = { critical: 'Critical', major: 'Major', minor: 'Minor' };

/**
 * The threads a review makes, in the review's order. An issue whose file the containment check
 * refuses (outside the workspace, `.git`, a link that leads out, not text) gets none.
 */
export function reviewCommentSpecs(workspaceRoot: string, review: ReviewResult): ReviewCommentSpec[] {
  return review.criticalIssues.flatMap((issue) => {
    const spec = issueCommentSpec(workspaceRoot, issue, review.score);
    return spec ? [spec] : [];
  });
}

export function issueCommentSpec(workspaceRoot: string, issue: ReviewIssue, score: number): ReviewCommentSpec | null {
  const rel = containedPath(workspaceRoot, issue.file);
  if (rel === null) return null;
  const word = SEVERITY_WORDS[issue.severity] ?? 'Issue';
  const body = [`**${word}**: ${escapeMarkdown(issue.description)}`];
  if (issue.suggestedFix) body.push(`**Suggested fix**: ${escapeMarkdown(issue.suggestedFix)}`);
  return {
    path: rel,
    line: threadLine(issue.line),
    severity: issue.severity,
    label: `Ironbees review: ${issue.severity} (score ${score}/10)`,
    body: body.join('\n\n'),
    collapsed: issue.severity === 'minor',
  };
}

/** The workspace-relative path, or null when the check refuses it or it names the root itself. */
function containedPath(workspaceRoot: string, file: unknown): string | null {
  if (typeof file !== 'string') return null;
  try {
    const { rel } = resolveWorkspacePath(workspaceRoot, file);
    return rel === '' ? null : rel;
  } catch {
    return null;
  }
}

function threadLine(line: number | undefined): number {
  return typeof line === 'number' && Number.isSafeInteger(line) && line > 0 ? line - 1 : 0;
}

/** Every character CommonMark lets a backslash escape: with each escaped, no link, emphasis, HTML, entity or autolink remains. */
const MARKDOWN_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * The model's text as Markdown that renders as exactly that text: every punctuation character is
 * escaped, indentation is kept as non-breaking spaces (four spaces would start a code block) and
 * each line break stays a line break.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) =>
      line
        .trimEnd()
        .replace(MARKDOWN_PUNCTUATION, '\\$&')
        .replace(/^[ \t]+/, (indent) => '&nbsp;'.repeat(indent.length)),
    )
    .join('  \n');
}
