// Exit codes are a public contract (README.md, "Command line"): scripts and CI branch on them, so they live in
// one place and every path out of the CLI goes through these names.

import { ConfigurationError, InvalidStateError, StateNotFoundError, WorkspaceBusyError } from '../core/errors';
import type { WorkflowNode } from '../core/model';
import type { CommandName } from './command-names';

export const ExitCode = {
  SUCCESS: 0,
  FAILED: 1,
  USAGE: 2,
  ESCALATED: 3,
  /** The person chose stop at an escalation: the run ended as asked, nothing is left waiting (unlike 3). */
  STOPPED_AT_ESCALATION: 4,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Bad command-line usage: the message says what is wrong, and the usage text follows it. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print; absent for the general usage. */
    readonly command?: CommandName,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Errors that mean "you asked for something that cannot be done as asked" (a bad flag, a missing key,
 * an unknown run id, a run that is not at a gate) are exit 2: nothing was changed. Anything else
 * is a failure of the run itself.
 */
export function exitCodeForError(error: unknown): ExitCodeValue {
  if (
    error instanceof UsageError ||
    error instanceof ConfigurationError ||
    error instanceof StateNotFoundError ||
    error instanceof InvalidStateError ||
    error instanceof WorkspaceBusyError
  ) {
    return ExitCode.USAGE;
  }
  return ExitCode.FAILED;
}

/** How a run that ended at `node` exits. `stoppedByPerson` is true when the person chose stop at an escalation. */
export function exitCodeForNode(node: WorkflowNode, stoppedByPerson = false): ExitCodeValue {
  switch (node) {
    case 'SUCCESS':
      return ExitCode.SUCCESS;
    case 'FAILED':
      return ExitCode.FAILED;
    case 'CANCELLED':
      return stoppedByPerson ? ExitCode.STOPPED_AT_ESCALATION : ExitCode.INTERRUPTED;
    case 'WAIT_HUMAN':
    case 'ESCALATE':
      return ExitCode.ESCALATED;
    default:
      // Stopped mid-run without reaching an end: persisted, resumable — the same promise as Ctrl-C.
      return ExitCode.INTERRUPTED;
  }
}
