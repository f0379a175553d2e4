// What the agent is doing now, under the current step: each model turn with its words as they
// stream (folded to one line once the answer is in, with what the call cost), and each tool call
// as one line with its outcome. A folded turn opens to all its words and a tool line to the call's
// arguments and answer (native <details>: keyboard and screen readers work). Newest last; the list
// follows the newest while it grows.

import { useEffect, useRef, type ReactNode } from 'react';
import type { ActivityEntry } from '../../../src/shared/protocol';
import { expandedText, foldedWords } from '../state/activity';
import { formatUsage } from '../state/format';
import { Icon } from './common';

export function ActivitySection({ entries }: { entries: ActivityEntry[] }): ReactNode {
  const end = useRef<HTMLLIElement | null>(null);
  // A block body: an effect may return only a clean-up function (or nothing).
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [entries]);
  if (entries.length === 0) return null;
  return (
    <section className="activity" aria-label="Activity" aria-live="polite">
      <ol className="activity-list" data-testid="activity">
        {entries.map((entry) =>
          entry.kind === 'tool' ? <ToolLine key={entry.id} entry={entry} /> : <TurnLine key={entry.id} entry={entry} />,
        )}
        <li ref={end} className="activity-end" aria-hidden="true" />
      </ol>
    </section>
  );
}

function ToolLine({ entry }: { entry: ActivityEntry }): ReactNode {
  const line = <span className="activity-text">{entry.text}</span>;
  const detail = expandedText(entry);
  return (
    <li className={`activity-item activity-tool${entry.ok ? '' : ' failed'}`} data-testid="activity-tool" data-ok={String(entry.ok)}>
      <Icon name={entry.ok ? 'tools' : 'warning'} />
      {detail ? <Expandable summary={line} body={detail} testId="activity-tool-detail" /> : line}
    </li>
  );
}

/** A line that opens to its whole text below it. */
function Expandable({ summary, body, testId }: { summary: ReactNode; body: string; testId: string }): ReactNode {
  return (
    <details className="activity-details">
      <summary>{summary}</summary>
      <pre className="activity-detail" data-testid={testId}>
        {body}
      </pre>
    </details>
  );
}

function TurnLine({ entry }: { entry: ActivityEntry }): ReactNode {
  const words = entry.done ? foldedWords(entry.text) : entry.text;
  const whole = expandedText(entry);
  const line = (
    <span className="activity-text">
      {words || <span className="muted">{entry.done ? `${entry.agent} turn ${entry.turn}` : `${entry.agent} is thinking…`}</span>}
      {entry.done && entry.usage ? <span className="muted activity-usage"> · {formatUsage(entry.usage)}</span> : null}
    </span>
  );
  return (
    <li
      className={`activity-item activity-turn${entry.done ? ' done' : ' streaming'}`}
      data-testid="activity-turn"
      data-done={String(entry.done)}
      title={entry.done ? entry.text : undefined}
    >
      <Icon name={entry.done ? 'comment' : 'loading'} spin={!entry.done} />
      {whole ? <Expandable summary={line} body={whole} testId="activity-turn-detail" /> : line}
    </li>
  );
}
