// The reviewer's verdict on the run's change: the score, passed or not, and each issue linked to its
// file and line (a click opens the file there).

import type { ReactNode } from 'react';
import type { ReviewIssue, ReviewResult } from '../../../src/core/model';
import { send } from '../vscode-api';
import { Badge, Section } from './common';

const TONES = { critical: 'error', major: 'warn', minor: 'neutral' } as const;

export function ReviewSection({ review }: { review: ReviewResult }): ReactNode {
  return (
    <Section title="Code review" icon="checklist" testId="review">
      <div className="review-score" data-testid="review-score" data-pass={review.pass ? 'true' : 'false'}>
        <Badge tone={review.pass ? 'ok' : 'error'}>{review.pass ? 'passed' : 'failed'}</Badge> score {review.score}/10
      </div>
      {review.criticalIssues.length > 0 ? (
        <ul className="review-issues">
          {review.criticalIssues.map((issue, index) => (
            <li key={`${index}:${issue.file}:${issue.line ?? 0}`} data-testid="review-issue" data-severity={issue.severity}>
              <Badge tone={TONES[issue.severity]}>{issue.severity}</Badge> <IssueLink issue={issue} /> {issue.description}
              {issue.suggestedFix ? <div className="review-fix">Fix: {issue.suggestedFix}</div> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {review.suggestions.length > 0 ? (
        <ul className="review-suggestions">
          {review.suggestions.map((suggestion, index) => (
            <li key={`s:${index}`} data-testid="review-suggestion">
              {suggestion}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function IssueLink({ issue }: { issue: ReviewIssue }): ReactNode {
  const where = issue.line !== undefined ? `${issue.file}:${issue.line}` : issue.file;
  return (
    <button
      type="button"
      className="link review-location"
      title={`Open ${where}`}
      onClick={() => send({ type: 'openFile', filePath: issue.file, line: Math.max(0, issue.line ?? 0), column: 0 })}
    >
      <code className="path">{where}</code>
    </button>
  );
}
