// "Restore here" / "Back to last green": asks the extension to rewind the run to a checkpoint. The
// extension shows what would change (a diff) and asks before anything is written.

import type { MouseEvent, ReactNode } from 'react';
import type { PanelCheckpoint } from '../../../src/shared/protocol';
import { send } from '../vscode-api';
import { Icon } from './common';

export function checkpointTitle(c: PanelCheckpoint): string {
  const tests = c.tests.total > 0 ? ` — tests ${c.tests.passed}/${c.tests.total} passed` : '';
  return `Go back to ${c.label}${tests}: see the diff, confirm, then give the agent guidance`;
}

/** Nothing when there is no checkpoint to go back to. */
export function RestoreButton({
  runId,
  checkpoint,
  label = 'Restore here',
}: {
  runId: string;
  checkpoint: PanelCheckpoint | undefined;
  label?: string;
}): ReactNode {
  if (!checkpoint) return null;
  const id = checkpoint.id;
  const onClick = (event: MouseEvent): void => {
    // Inside a timeline step, whose own click opens its turns.
    event.stopPropagation();
    send({ type: 'restoreCheckpoint', runId, checkpoint: id });
  };
  return (
    <button
      type="button"
      className="restore-button"
      data-testid={`restore-${checkpoint.id}`}
      data-checkpoint={checkpoint.id}
      title={checkpointTitle(checkpoint)}
      onClick={onClick}
    >
      <Icon name="history" />
      <span>{label}</span>
    </button>
  );
}
