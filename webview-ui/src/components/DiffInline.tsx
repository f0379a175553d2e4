// A unified diff drawn in the page (the served web page, which has no diff editor): hunk by hunk,
// each line numbered on the original and the proposed side, added and removed lines marked. The
// text is the model's and the repository's: it is only ever rendered as text, never as HTML.

import type { ReactNode } from 'react';
import { diffHunks, type DiffHunk, type DiffLineKind } from '../state/diff-hunks';

const SIGN: Record<DiffLineKind, string> = { context: ' ', added: '+', removed: '-', note: '' };

export function DiffInline({
  text,
  verdicts,
  actions,
}: {
  text: string;
  /** Each hunk's verdict so far (marks the hunk). */
  verdicts?: readonly string[];
  /** What to offer beside each hunk's header (the review's Accept / Reject). */
  actions?: (hunk: DiffHunk) => ReactNode;
}): ReactNode {
  return (
    <div className="diff-inline" data-testid="diff-inline">
      {diffHunks(text).map((hunk) => (
        <div
          key={hunk.index}
          className={`diff-hunk-block verdict-${verdicts?.[hunk.index] ?? 'pending'}`}
          data-testid="diff-hunk"
          data-hunk={hunk.index}
          data-verdict={verdicts?.[hunk.index] ?? 'pending'}
        >
          <div className="diff-hunk-head">
            <code className="diff-hunk">{hunk.header}</code>
            {actions?.(hunk)}
          </div>
          <table className="diff-lines">
            <tbody>
              {hunk.lines.map((line, index) => (
                <tr key={index} className={`diff-${line.kind}`}>
                  <td className="diff-number">{line.oldNumber ?? ''}</td>
                  <td className="diff-number">{line.newNumber ?? ''}</td>
                  <td className="diff-sign">{SIGN[line.kind]}</td>
                  <td className="diff-code">{line.text || ' '}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
