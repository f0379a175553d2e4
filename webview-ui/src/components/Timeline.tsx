// The run's place in the workflow, with the iteration it is on.

import type { ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import { conflictNote, endingNote, runTimeline } from '../state/timeline';
import type { RestorePoints } from '../state/restore-points';
import { Icon } from './common';
import { RestoreButton } from './RestoreButton';

const STATUS_ICON = {
  done: 'pass-filled',
  current: 'circle-large-filled',
  todo: 'circle-large-outline',
  failed: 'error',
  stopped: 'circle-slash',
  reverted: 'discard',
  skipped: 'debug-step-over',
} as const;

export function Timeline({ run, busy, restore }: { run: CodingState; busy: boolean; restore?: RestorePoints['steps'] }): ReactNode {
  const entries = runTimeline(run);
  const ending = endingNote(run);
  const conflict = conflictNote(run);
  return (
    <div className="timeline-block">
      <ol className="timeline" data-testid="timeline" aria-label="Workflow">
        {entries.map((entry) => (
          <li
            key={entry.node}
            className={`timeline-item ${entry.status} node-${entry.node.toLowerCase()}`}
            aria-current={entry.status === 'current' ? 'step' : undefined}
            data-node={entry.node}
            data-status={entry.status}
            title={entry.note}
          >
            <Icon
              name={entry.status === 'current' && busy ? 'loading' : STATUS_ICON[entry.status]}
              spin={entry.status === 'current' && busy}
            />
            <span>{entry.label}</span>
            <RestoreButton runId={run.stateId} checkpoint={restore?.[entry.node]} />
          </li>
        ))}
      </ol>
      {ending ? (
        <div
          className={run.currentNode === 'FAILED' ? 'problem' : 'muted'}
          data-testid="ending-note"
          role={run.currentNode === 'FAILED' ? 'alert' : undefined}
        >
          {ending}
        </div>
      ) : null}
      {conflict ? (
        <div className="muted" data-testid="conflict-note">
          {conflict}
        </div>
      ) : null}
      <div className="muted" data-testid="iteration">
        Iteration {run.iterationCount}/{run.maxIterations}
      </div>
    </div>
  );
}
