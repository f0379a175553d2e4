// A timeline step's turns, opened by a click on the step (TimelineTurns.tsx): for each conversation
// of that step, every model turn with its tool calls, outcome, duration and tokens.

import type { ReactNode } from 'react';
import type { StepTurnGroup } from '../../../src/shared/protocol';
import { stepTurnsView } from '../state/step-turns';
import { Badge, Icon, IconButton, Section } from './common';

export function StepTurns({
  node,
  groups: steps,
  onClose,
}: {
  node: 'PLAN' | 'CODE';
  groups: StepTurnGroup[];
  onClose: () => void;
}): ReactNode {
  const groups = stepTurnsView(steps);
  return (
    <Section
      title={node === 'PLAN' ? 'Planning turns' : 'Coding turns'}
      icon="list-tree"
      testId="step-turns"
      actions={<IconButton icon="close" label="Close the turns" testId="close-step-turns" onClick={onClose} />}
    >
      {groups.length === 0 ? <p className="muted">No turns recorded for this step yet.</p> : null}
      {groups.map((group) => (
        <div key={group.key} className="turn-group" data-testid="turn-group" data-step={group.label}>
          <div className="turn-group-head">
            <strong>{group.label}</strong> <span className="muted">{group.subtitle}</span>
          </div>
          <ol className="turn-list">
            {group.rows.map((row) => (
              <li key={row.key} className="turn-row" data-testid="turn-row">
                <div className="turn-head">
                  <span>{row.title}</span> <Badge tone={row.tone}>{row.outcome}</Badge>{' '}
                  <span className="muted">
                    {row.duration} · {row.tokens}
                  </span>
                </div>
                {row.calls.length > 0 ? (
                  <ul className="turn-calls">
                    {row.calls.map((call) => (
                      <li key={call.key} className={call.ok ? 'turn-call ok' : 'turn-call failed'} data-testid="turn-call">
                        <Icon name={call.ok ? 'check' : 'error'} /> <code>{call.name}</code> <span className="muted">{call.detail}</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {row.error ? <div className="turn-error">{row.error}</div> : null}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </Section>
  );
}
