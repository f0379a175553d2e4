// The arguments of `ironbees checkpoints` and `ironbees rewind`, and resume's --guidance
// (docs/contracts.md, "Checkpoints and rewind"). Pure, like args.ts, which dispatches here.

import { UsageError } from './exit-codes';

export interface CheckpointsArgs {
  command: 'checkpoints';
  runId: string;
  workspace: string;
  json: boolean;
}

export interface RewindArgs {
  command: 'rewind';
  runId: string;
  /** An id, `plan`, `iteration:N` or `last-green`. */
  checkpoint: string;
  workspace: string;
  force: boolean;
}

type Values = Record<string, string | boolean | string[] | undefined>;

export function parseCheckpoints(values: Values, positionals: string[], workspace: string): CheckpointsArgs {
  if (positionals.length !== 1 || !positionals[0].trim())
    throw new UsageError('checkpoints needs a run id (see `ironbees runs`).', 'checkpoints');
  return { command: 'checkpoints', runId: positionals[0], workspace, json: values.json === true };
}

export function parseRewind(values: Values, positionals: string[], workspace: string): RewindArgs {
  const [runId, checkpoint] = positionals;
  if (positionals.length !== 2 || !runId.trim() || !checkpoint.trim()) {
    throw new UsageError('rewind needs a run id and a checkpoint (an id, plan, iteration:N or last-green).', 'rewind');
  }
  return { command: 'rewind', runId, checkpoint: checkpoint.trim(), workspace, force: values.force === true };
}

/** resume's --guidance: the words for the coder at the run's WAIT_HUMAN. */
export function guidanceOption(values: Values): { guidance?: string } {
  const guidance = values.guidance;
  if (guidance === undefined) return {};
  if (typeof guidance !== 'string' || !guidance.trim()) throw new UsageError('--guidance needs the words for the coder.', 'resume');
  return { guidance: guidance.trim() };
}
