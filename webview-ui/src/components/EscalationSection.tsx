// The hand-off at WAIT_HUMAN: what still fails, then the person's call — continue with guidance and
// more iterations, stop here, or revert every change the run made (which stops it too, once the
// person confirms in VS Code's dialog).

import { useState, type ReactNode } from 'react';
import { send } from '../vscode-api';
import { Button, Section, TextArea } from './common';

const DEFAULT_MORE_ITERATIONS = 3;
const MAX_MORE_ITERATIONS = 50;

export function EscalationSection({ runId, reasons, note }: { runId: string; reasons: string[]; note?: string | null }): ReactNode {
  const [guidance, setGuidance] = useState('');
  const [more, setMore] = useState(DEFAULT_MORE_ITERATIONS);
  const [sent, setSent] = useState(false);

  const go = (message: Parameters<typeof send>[0]): void => {
    setSent(true);
    send(message);
  };

  return (
    <Section title="The agent needs you" icon="person" testId="escalation">
      {note ? (
        <p data-testid="rewound-note">{note}</p>
      ) : reasons.length > 0 ? (
        <ul className="escalation-reasons">
          {reasons.map((r, i) => (
            <li key={i}>
              <code>{r}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">The iteration budget ran out before the tests passed.</p>
      )}
      <TextArea label="Guidance for the next attempt" testId="guidance" value={guidance} onChange={setGuidance} rows={3} />
      <label className="field inline">
        <span className="field-label">More iterations</span>
        <input
          type="number"
          data-testid="more-iterations"
          min={1}
          max={MAX_MORE_ITERATIONS}
          value={more}
          onChange={(e) => setMore(clampIterations(Number(e.currentTarget.value)))}
        />
      </label>
      <div className="row">
        <Button
          testId="continue"
          icon="debug-continue"
          disabled={sent}
          onClick={() => go({ type: 'continueRun', runId, guidance: guidance.trim(), additionalIterations: more })}
        >
          Continue
        </Button>
        <Button testId="stop" icon="debug-stop" secondary disabled={sent} onClick={() => go({ type: 'stopRun', runId })}>
          Stop
        </Button>
        {/* Not `go`: the extension asks the person to confirm first, and a "no" must leave these buttons usable. */}
        <Button testId="revert" icon="discard" secondary disabled={sent} onClick={() => send({ type: 'revertRun', runId })}>
          Revert
        </Button>
      </div>
    </Section>
  );
}

function clampIterations(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_MORE_ITERATIONS;
  return Math.min(MAX_MORE_ITERATIONS, Math.max(1, Math.round(value)));
}
