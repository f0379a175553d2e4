// A unified diff drawn in the page (the served web page, which has no diff editor): one line per
// line, added and removed lines marked, hunk headers set apart.

import type { ReactNode } from 'react';

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-ctx';
}

export function DiffInline({ text }: { text: string }): ReactNode {
  const lines = text.replace(/\n$/, '').split('\n');
  return (
    <pre className="diff-inline" data-testid="diff-inline">
      {lines.map((line, index) => (
        <div key={index} className={lineClass(line)}>
          {line || ' '}
        </div>
      ))}
    </pre>
  );
}
