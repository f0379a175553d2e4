// The run's place in the workflow, with the iteration it is on.

import type { ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import { buildTimeline } from '../state/timeline';
import { Icon } from './common';

const STATUS_ICON = { done: 'pass-filled', current: 'circle-large-filled', todo: 'circle-large-outline' } as const;

export function Timeline({ run, busy }: { run: CodingState; busy: boolean }): ReactNode {
  const entries = buildTimeline(run.currentNode);
  return (
    <div className="timeline-block">
      <ol className="timeline" data-testid="timeline" aria-label="Workflow">
        {entries.map((entry) => (
          <li
            key={entry.node}
            className={`timeline-item ${entry.status} node-${entry.node.toLowerCase()}`}
            aria-current={entry.status === 'current' ? 'step' : undefined}
            data-node={entry.node}
          >
            <Icon name={entry.status === 'current' && busy ? 'loading' : STATUS_ICON[entry.status]} spin={entry.status === 'current' && busy} />
            <span>{entry.label}</span>
          </li>
        ))}
      </ol>
      <div className="muted" data-testid="iteration">
        Iteration {run.iterationCount}/{run.maxIterations}
      </div>
    </div>
  );
}
