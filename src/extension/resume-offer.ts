// On activation, runs that did not finish (the window closed mid-run, or a gate was left waiting)
// are offered for resume: one notification, never a modal.

import * as vscode from 'vscode';
import type { Logger } from '../core/host';
import { errorMessage } from '../core/errors';
import type { RunSummary } from '../core/trace';
import type { RunController } from './run-controller';
import { nodeLabel } from './status-text';

export async function offerUnfinishedRuns(
  controller: RunController,
  resume: (runId: string) => Promise<unknown>,
  logger: Logger,
): Promise<void> {
  let runs: RunSummary[];
  try {
    runs = await controller.unfinishedRuns();
  } catch (error) {
    logger.warn(`Could not list unfinished runs: ${errorMessage(error)}`);
    return;
  }
  const latest = runs[0];
  if (!latest) return;
  const others = runs.length > 1 ? ` (and ${runs.length - 1} more; see Show Run History)` : '';
  const request = latest.userRequest.split('\n')[0].slice(0, 80);
  const choice = await vscode.window.showInformationMessage(
    `Ironbees: the run "${request}" stopped at ${nodeLabel(latest.currentNode)}${others}. Resume it?`,
    'Resume',
    'Not now',
  );
  if (choice === 'Resume') await resume(latest.runId);
}
