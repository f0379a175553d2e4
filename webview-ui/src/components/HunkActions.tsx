// Accept / Reject for one hunk of a proposed file in the page's inline diff; a rejection may carry
// a reason, which the coder reads next to that hunk.

import { useState, type ReactNode } from 'react';
import { send } from '../vscode-api';
import type { DiffHunk } from '../state/diff-hunks';
import { Badge, IconButton } from './common';
import { RejectForm } from './RejectForm';

const TONE = { pending: 'neutral', accepted: 'ok', rejected: 'error' } as const;

export function HunkActions({
  runId,
  filePath,
  hunk,
  verdict,
  reason,
  waiting,
}: {
  runId: string;
  filePath: string;
  hunk: DiffHunk;
  verdict: 'pending' | 'accepted' | 'rejected';
  /** The reason given when it was rejected. */
  reason?: string;
  waiting: boolean;
}): ReactNode {
  const [rejecting, setRejecting] = useState(false);
  const [draft, setDraft] = useState('');
  const name = `hunk ${hunk.index + 1} of ${filePath}`;

  const decide = (accepted: boolean): void => {
    const why = draft.trim();
    send({ type: 'setHunkDecision', runId, filePath, hunk: hunk.index, accepted, ...(!accepted && why ? { reason: why } : {}) });
    setRejecting(false);
  };

  return (
    <>
      <span className="diff-stats">
        <span className="added">+{hunk.added}</span> <span className="removed">-{hunk.removed}</span>
      </span>
      <Badge tone={TONE[verdict]} title={reason ? `${verdict}: ${reason}` : verdict}>
        {verdict}
      </Badge>
      {waiting ? (
        <>
          <IconButton icon="check" label={`Accept ${name}`} testId="accept-hunk" onClick={() => decide(true)} />
          <IconButton icon="close" label={`Reject ${name}`} testId="reject-hunk" onClick={() => setRejecting(!rejecting)} />
        </>
      ) : null}
      {verdict === 'rejected' && reason ? (
        <span className="hunk-reason" data-testid="hunk-reason">
          {reason}
        </span>
      ) : null}
      {waiting && rejecting ? (
        <RejectForm
          className="hunk-reject"
          label={`Why reject ${name}? (optional, the coder reads it)`}
          testId="hunk-reject-reason"
          confirmTestId="confirm-reject-hunk"
          confirmLabel="Reject hunk"
          value={draft}
          onChange={setDraft}
          onConfirm={() => decide(false)}
          onBack={() => setRejecting(false)}
        />
      ) : null}
    </>
  );
}
