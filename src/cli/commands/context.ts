// What every command receives: the streams, colours for stderr, a logger, and the factories.

import * as fs from 'node:fs/promises';
import type { Logger } from '../../core/host';
import { ConfigurationError } from '../../core/errors';
import { checkToolingFolder } from '../../core/workspace/paths';
import type { StderrLines } from '../stderr-lines';
import type { CliIo, Colors } from '../terminal';
import type { CliDeps } from '../wiring';

export interface CommandContext {
  io: CliIo;
  /** For stderr: progress, prompts, diffs. */
  colors: Colors;
  /** stderr line by line, shared by the logger and the live activity (a live line stays whole). */
  lines: StderrLines;
  logger: Logger;
  deps: CliDeps;
}

/** The workspace must be an existing folder: a typo must not start a run (or create .ironbees/) elsewhere. */
export async function checkWorkspace(workspace: string): Promise<void> {
  const stat = await fs.stat(workspace).catch(() => null);
  if (!stat) throw new ConfigurationError(`The workspace ${workspace} does not exist; pass an existing folder with --workspace.`);
  if (!stat.isDirectory()) throw new ConfigurationError(`The workspace ${workspace} is not a folder; pass a folder with --workspace.`);
  // A `.ironbees` that is a link would put the run state outside the workspace: refused before anything is read or written.
  checkToolingFolder(workspace);
}
