// HANDOFF.md, one click away: opened as a rendered Markdown preview, with the commands it lists
// (resume the run, revert every change it made) as buttons beside it.

import type { ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import { send } from '../vscode-api';
import { isTerminal } from '../state/timeline';
import { Button } from './common';

/**
 * Shown once the run has written its hand-off (at an escalation or at its end), and for an
 * interrupted run, whose hand-off the extension writes when it is opened.
 */
export function HandoffBar({ run, interrupted }: { run: CodingState; interrupted: boolean }): ReactNode {
  if (typeof run.metadata.handoffPath !== 'string' && !interrupted) return null;
  const runId = run.stateId;
  return (
    <div className="handoff-bar" data-testid="handoff-bar">
      <Button
        testId="open-handoff"
        icon="book"
        secondary
        onClick={() => send({ type: 'openHandoff', runId })}
        title="Open HANDOFF.md as a Markdown preview"
      >
        HANDOFF.md
      </Button>
      {interrupted && !isTerminal(run.currentNode) ? (
        <Button
          testId="handoff-resume"
          icon="debug-continue"
          secondary
          onClick={() => send({ type: 'resumeRun', runId })}
          title={`ironbees resume ${runId}`}
        >
          Resume
        </Button>
      ) : null}
      {typeof run.metadata.revertedAt === 'string' ? null : (
        <Button
          testId="handoff-revert"
          icon="discard"
          secondary
          onClick={() => send({ type: 'revertRun', runId })}
          title={`ironbees revert ${runId}: every file the run changed gets its original content back`}
        >
          Revert
        </Button>
      )}
    </div>
  );
}
