// The proposed files. At WAIT_DIFF_APPROVAL each file can be accepted or rejected (with a reason the
// coder will read), opened in VS Code's diff editor (where single hunks can be judged) or, in the
// served page, read inline hunk by hunk and each hunk accepted or rejected; then the review is
// submitted, everything accepted at once, or every change rejected with feedback. Otherwise the list
// shows what was changed.

import { useState, type ReactNode } from 'react';
import type { EditType } from '../../../src/core/model';
import type { FileReviewStatus } from '../../../src/shared/protocol';
import { send } from '../vscode-api';
import { isServedPage } from '../transport-http';
import { DiffInline } from './DiffInline';
import { HunkActions } from './HunkActions';
import { RejectForm } from './RejectForm';
import { tallyReview, type FileRow } from '../state/files';
import { Badge, Button, Icon, IconButton, Section, TextArea } from './common';

const TYPE_ICON: Record<EditType, string> = { CREATE: 'diff-added', MODIFY: 'diff-modified', DELETE: 'diff-removed' };
const STATUS_TONE: Record<FileReviewStatus, 'neutral' | 'ok' | 'error' | 'warn'> = {
  pending: 'neutral',
  accepted: 'ok',
  rejected: 'error',
  partial: 'warn',
};

export function FilesSection({ runId, rows, waiting }: { runId: string; rows: FileRow[]; waiting: boolean }): ReactNode {
  const [rejectingAll, setRejectingAll] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [sent, setSent] = useState(false);
  const tally = tallyReview(rows);

  const submit = (): void => {
    setSent(true);
    send({ type: 'submitReview', runId });
  };
  // As the editor's Accept All: the files not judged yet are accepted whole, the verdicts given stand,
  // and the review is sent (messages arrive in order).
  const acceptAll = (): void => {
    setSent(true);
    for (const row of rows) {
      if (row.status === 'pending') send({ type: 'setFileDecision', runId, filePath: row.filePath, accepted: true });
    }
    send({ type: 'submitReview', runId });
  };
  const rejectAll = (): void => {
    if (feedback.trim() === '') return;
    setSent(true);
    send({ type: 'rejectDiffs', runId, feedback: feedback.trim() });
  };

  return (
    <Section title={waiting ? 'Proposed changes' : 'Changes'} icon="files" testId="files">
      <ul className="file-list" data-testid="file-list">
        {rows.map((row) => (
          <FileRowView key={row.filePath} runId={runId} row={row} waiting={waiting && !sent} />
        ))}
      </ul>
      {waiting ? (
        <div className="gate">
          <div className="muted" data-testid="review-tally">
            {tally.accepted} accepted · {tally.partial} partly · {tally.rejected} rejected · {tally.pending} to review
          </div>
          {rejectingAll ? (
            <>
              <TextArea
                label="Why reject these changes? The coder tries again with this."
                testId="diff-feedback"
                value={feedback}
                onChange={setFeedback}
                onSubmit={rejectAll}
                autoFocus
              />
              <div className="row">
                <Button testId="send-diff-feedback" icon="send" onClick={rejectAll} disabled={sent || feedback.trim() === ''}>
                  Reject all and retry
                </Button>
                <Button secondary onClick={() => setRejectingAll(false)} disabled={sent}>
                  Back
                </Button>
              </div>
            </>
          ) : (
            <div className="row">
              <Button
                testId="submit-review"
                icon="check-all"
                onClick={submit}
                disabled={sent}
                title="Apply the accepted changes (files not judged count as accepted)"
              >
                Submit review
              </Button>
              <Button
                testId="accept-all"
                icon="check-all"
                secondary
                onClick={acceptAll}
                disabled={sent}
                title="Accept the files not judged yet and apply the review"
              >
                Accept all
              </Button>
              <Button testId="reject-all" icon="close-all" secondary onClick={() => setRejectingAll(true)} disabled={sent}>
                Reject all
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </Section>
  );
}

function FileRowView({ runId, row, waiting }: { runId: string; row: FileRow; waiting: boolean }): ReactNode {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  // In a served page there is no diff editor: the diff opens under the row.
  const inline = isServedPage() && row.diffText !== undefined;
  const [open, setOpen] = useState(inline && waiting);

  const decide = (accepted: boolean): void => {
    const trimmed = reason.trim();
    send(
      accepted || trimmed === ''
        ? { type: 'setFileDecision', runId, filePath: row.filePath, accepted }
        : { type: 'setFileDecision', runId, filePath: row.filePath, accepted, reason: trimmed },
    );
    setRejecting(false);
  };
  const partly = row.rejectedHunks.length > 0 ? ` (${row.rejectedHunks.length} of ${row.hunkCount} hunks rejected)` : '';

  return (
    <li className={`file-row status-${row.status}`} data-testid="file-row" data-file={row.filePath} data-status={row.status}>
      <div className="file-row-main">
        <Icon name={TYPE_ICON[row.type]} />
        <button
          type="button"
          className="link path"
          data-testid="open-diff"
          title={`Open the diff of ${row.filePath}`}
          onClick={() => (inline ? setOpen(!open) : send({ type: 'openDiff', runId, filePath: row.filePath }))}
        >
          {row.filePath}
        </button>
        <span className="diff-stats">
          <span className="added">+{row.added}</span> <span className="removed">-{row.removed}</span>
        </span>
        {/* Outside the review gate an unjudged file was simply applied: "pending" would mislead. */}
        {waiting || row.status !== 'pending' ? (
          <Badge tone={STATUS_TONE[row.status]} title={`${row.status}${partly}`}>
            {row.status}
          </Badge>
        ) : null}
        {waiting ? (
          <span className="file-actions">
            <IconButton icon="check" label={`Accept ${row.filePath}`} testId="accept-file" onClick={() => decide(true)} />
            <IconButton icon="close" label={`Reject ${row.filePath}`} testId="reject-file" onClick={() => setRejecting(!rejecting)} />
          </span>
        ) : null}
      </div>
      {inline && open ? (
        <DiffInline
          text={row.diffText ?? ''}
          verdicts={row.hunkVerdicts}
          actions={(hunk) => (
            <HunkActions
              runId={runId}
              filePath={row.filePath}
              hunk={hunk}
              verdict={row.hunkVerdicts?.[hunk.index] ?? 'pending'}
              reason={row.hunkReasons?.[hunk.index]}
              waiting={waiting}
            />
          )}
        />
      ) : null}
      {waiting && rejecting ? (
        <RejectForm
          className="file-reject"
          label="Reason (optional, the coder reads it)"
          testId="reject-reason"
          confirmTestId="confirm-reject-file"
          confirmLabel="Reject file"
          value={reason}
          onChange={setReason}
          onConfirm={() => decide(false)}
          onBack={() => setRejecting(false)}
        />
      ) : null}
    </li>
  );
}
