// How the run was steered: each plan version and what made it, each proposal with the coder's own
// summary, and the person's guidance, so feedback that changed nothing is visible as such.

import type { ReactNode } from 'react';
import type { RestorePoints } from '../state/restore-points';
import type { SteeringTrail } from '../state/steering';
import { Badge, Section } from './common';
import { RestoreButton } from './RestoreButton';

export function SteeringSection({
  trail,
  runId,
  restore,
}: {
  trail: SteeringTrail;
  runId?: string;
  restore?: RestorePoints['attempts'];
}): ReactNode {
  return (
    <Section title="Steering" icon="history" testId="steering">
      {trail.plans.length > 1 ? (
        <ol className="steering-list" data-testid="plan-versions">
          {trail.plans.map((p) => (
            <li key={p.version} data-unchanged={p.unchanged ? 'true' : 'false'}>
              <div>
                <strong>Plan v{p.version}</strong> {p.by === 'person' ? <Badge tone="info">edited by you</Badge> : null}{' '}
                {p.unchanged ? (
                  <Badge tone="warn" title="The planner returned the very plan you rejected">
                    unchanged
                  </Badge>
                ) : null}{' '}
                {p.summary}{' '}
                <span className="muted">
                  ({p.stepCount} step{p.stepCount === 1 ? '' : 's'})
                </span>
              </div>
              {p.feedback ? <div className="muted">after: “{p.feedback}”</div> : null}
              {p.added.length + p.removed.length > 0 ? (
                <ul className="plan-changes" data-testid="plan-changes" aria-label={`What plan v${p.version} changed`}>
                  {p.removed.map((step, i) => (
                    <li key={`r${i}`} className="plan-change removed">
                      − {step}
                    </li>
                  ))}
                  {p.added.map((step, i) => (
                    <li key={`a${i}`} className="plan-change added">
                      + {step}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      {trail.attempts.length > 0 ? (
        <ol className="steering-list" data-testid="attempts">
          {trail.attempts.map((a, i) => (
            <li key={i} data-outcome={a.outcome}>
              <div>
                <strong>Attempt {a.iteration}</strong>{' '}
                <Badge tone={a.outcome === 'applied' ? 'ok' : a.outcome === 'rejected' ? 'error' : 'warn'}>{a.outcome}</Badge>{' '}
                {a.summary ?? <span className="muted">(no summary)</span>}
                {runId ? <RestoreButton runId={runId} checkpoint={restore?.[a.iteration]} /> : null}
              </div>
              {a.feedback ? <div className="muted">your words: “{a.feedback}”</div> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {trail.guidance.length > 0 ? (
        <ul className="steering-list" data-testid="guidance-given">
          {trail.guidance.map((g, i) => (
            <li key={i}>
              <strong>Your guidance</strong> <span className="muted">(for iteration {g.iteration})</span>: “{g.guidance}”
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
