// The phases of a plan in phases as lanes: status, iteration, and the running phase's live activity.

import type { ReactNode } from 'react';
import type { PhaseLane } from '../state/phases';
import { Badge, Icon } from './common';

const TONES = { pending: 'neutral', running: 'info', complete: 'ok', error: 'error' } as const;
const ICONS = { pending: 'circle-outline', running: 'sync~spin', complete: 'pass', error: 'error' } as const;

export function PhaseLanes({ lanes, activity }: { lanes: readonly PhaseLane[]; activity: string | null }): ReactNode {
  if (lanes.length === 0) return null;
  return (
    <section className="phase-lanes" data-testid="phase-lanes" aria-label="Phases">
      {lanes.map((lane) => (
        <div
          key={lane.id}
          className={`phase-lane phase-${lane.status}`}
          data-testid="phase-lane"
          data-phase={lane.id}
          data-status={lane.status}
        >
          <div className="phase-lane-head">
            <Icon name={ICONS[lane.status]} /> <strong>{lane.name}</strong> <Badge tone={TONES[lane.status]}>{lane.status}</Badge>{' '}
            <span className="muted" data-testid="phase-detail">
              {lane.detail}
            </span>
          </div>
          {lane.status === 'running' && activity ? (
            <div className="phase-lane-activity muted" data-testid="phase-activity" title={activity}>
              {activity}
            </div>
          ) : null}
          {lane.note ? (
            <div className="phase-lane-note muted" title={lane.note}>
              {lane.note.split('\n')[0]}
            </div>
          ) : null}
        </div>
      ))}
    </section>
  );
}
