// Where a run starts: the request and the Run button. Disabled while a step is working, because the
// extension runs one run at a time.

import { useState, type ReactNode } from 'react';
import { send, loadDrafts, saveDrafts } from '../vscode-api';
import { Button, TextArea } from './common';

export function RequestBox({ busy, maxIterations }: { busy: boolean; maxIterations?: number }): ReactNode {
  const [request, setRequest] = useState(() => loadDrafts().request);
  const canRun = !busy && request.trim() !== '';

  const update = (value: string): void => {
    setRequest(value);
    saveDrafts({ request: value });
  };
  const run = (): void => {
    if (!canRun) return;
    send({ type: 'startRun', request: request.trim() });
    update('');
  };

  return (
    <div className="request-box">
      <TextArea
        label="What should the agent do?"
        testId="request-input"
        value={request}
        onChange={update}
        onSubmit={run}
        rows={3}
        placeholder="e.g. Fix the failing Calculator test (Ctrl+Enter to run)"
      />
      <div className="row">
        <Button
          testId="run-button"
          icon={busy ? 'loading' : 'play'}
          onClick={run}
          disabled={!canRun}
          title={busy ? 'A run is working' : 'Start a run'}
        >
          Run
        </Button>
        {maxIterations ? (
          <span className="muted" data-testid="max-iterations" title="ironbees.maxIterations">
            up to {maxIterations} iteration{maxIterations === 1 ? '' : 's'}
          </span>
        ) : null}
      </div>
    </div>
  );
}
