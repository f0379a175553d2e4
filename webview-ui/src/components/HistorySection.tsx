// Earlier runs in this workspace, newest first, each resumable (when unfinished) and revertible.

import type { ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';
import { send } from '../vscode-api';
import { formatCost, formatWhen } from '../state/format';
import { historyBadge, historyRows } from '../state/history';
import { isTerminal } from '../state/timeline';
import { Badge, IconButton, Section } from './common';

export function HistorySection({ runs, live, busy }: { runs: RunSummary[]; live: CodingState | null; busy: boolean }): ReactNode {
  const sorted = historyRows(runs, live);
  const liveRunId = live?.stateId ?? null;
  return (
    <Section
      title="Run history"
      icon="history"
      testId="history"
      actions={
        <IconButton icon="refresh" label="Refresh history" testId="refresh-history" onClick={() => send({ type: 'refreshHistory' })} />
      }
    >
      {sorted.length === 0 ? <p className="muted">No runs yet.</p> : null}
      <ul className="history-list">
        {sorted.map((run) => {
          const live = run.runId === liveRunId;
          const badge = historyBadge(run);
          return (
            <li key={run.runId} className="history-row" data-testid="history-row" data-run={run.runId}>
              <div className="history-request" title={run.userRequest}>
                {run.userRequest}
              </div>
              <div className="history-meta muted">
                <Badge tone={badge.tone} title={run.revertedAt ? `Reverted ${formatWhen(run.revertedAt)}` : undefined}>
                  {badge.label}
                </Badge>{' '}
                {run.iterationCount}/{run.maxIterations} · {formatCost(run.usage.costUsd)} · {formatWhen(run.updatedAt)}
              </div>
              <div className="history-actions">
                {!isTerminal(run.currentNode) && !(live && busy) ? (
                  <IconButton
                    icon="debug-restart"
                    label="Resume this run"
                    testId="resume-run"
                    onClick={() => send({ type: 'resumeRun', runId: run.runId })}
                  />
                ) : null}
                <IconButton
                  icon="discard"
                  label={isTerminal(run.currentNode) ? "Revert this run's changes" : 'Stop this run and revert its changes'}
                  testId="revert-run"
                  disabled={live && busy}
                  onClick={() => send({ type: 'revertRun', runId: run.runId })}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
