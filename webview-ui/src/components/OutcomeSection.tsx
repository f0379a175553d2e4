// The outcome at the top of the run view, above the timeline: what the person came for, without scrolling.

import type { ReactNode } from 'react';
import type { OutcomeView } from '../state/outcome';
import { Badge, Icon } from './common';

const ICONS = { ok: 'pass', error: 'error', warn: 'bell', neutral: 'info' } as const;

export function OutcomeSection({ view }: { view: OutcomeView }): ReactNode {
  return (
    <section className={`outcome tone-${view.tone}`} data-testid="outcome" data-tone={view.tone} aria-label="Outcome">
      <div className="outcome-headline" data-testid="outcome-headline">
        <Icon name={ICONS[view.tone]} /> {view.headline}
      </div>
      {view.tests ? (
        <div className="outcome-tests" data-testid="outcome-tests">
          {view.tests}
        </div>
      ) : null}
      <ul className="outcome-list">
        {view.fixed.map((name) => (
          <li key={`f:${name}`} data-testid="outcome-fixed" title={name}>
            <Badge tone="ok">fixed</Badge> <code>{name}</code>
          </li>
        ))}
        {view.newlyFailing.map((name) => (
          <li key={`n:${name}`} data-testid="outcome-new" title={name}>
            <Badge tone="error">new failure</Badge> <code>{name}</code>
          </li>
        ))}
        {view.stillFailing.map((name) => (
          <li key={`s:${name}`} data-testid="outcome-still" title={name}>
            <Badge tone="warn">still failing</Badge> <code>{name}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
