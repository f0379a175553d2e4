// A file the person changed while its diff was under review: the approved edits were not applied
// (the store refuses to write over the person's work, and writes nothing). Rather than ending the
// run FAILED, the coder proposes again with the person's current text as the base: it reads the
// files afresh, so its new edits start from their version, which is never overwritten. That round
// uses an iteration, like a rejection, so a file that keeps changing cannot loop for ever.

import { AgentModeError } from '../errors';
import { iterationLeft } from './escalation';
import type { RunContext } from './run-context';

/** The files of an edit conflict (code EDIT_CONFLICT), or null for any other error. */
export function conflictFiles(error: unknown): string[] | null {
  if (!(error instanceof AgentModeError) || error.code !== 'EDIT_CONFLICT') return null;
  const files = error.details.files;
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
}

/** What the coder is told, and what the run keeps, when its approved edits met the person's changes. */
export function overConflict(context: RunContext, files: string[]): Partial<RunContext> {
  const names = files.length ? files.join(', ') : 'a file';
  const text =
    `Your approved changes were NOT applied: the person edited ${names} while your proposal was under review, and their work is never overwritten. ` +
    `Read ${files.length === 1 ? 'that file' : 'those files'} again (they now hold the person's version) and propose your change again on top of it, keeping their edit.`;
  // The proposal was accepted but never written: its record says so rather than "applied".
  const attempts = (context.attempts ?? []).map((a, i, all) =>
    i === all.length - 1 && a.outcome === 'applied' && a.iteration === context.iterationCount
      ? { ...a, outcome: 'not applied' as const, feedback: `${names} changed on disk under review` }
      : a,
  );
  return {
    approvedEdits: [],
    attempts,
    editConflict: files,
    errorContext: {
      iteration: context.iterationCount,
      text,
      newBuildErrors: [],
      newTestFailures: [],
      preExistingFailures: [],
      guidance: context.guidance ?? undefined,
    },
  };
}

/** VALIDATE's onError: an edit conflict goes back to the coder while iterations are left, else to a person; any other error fails the run. */
export function conflictOrFailed() {
  type ErrorEvent = { event: { error: unknown } };
  const params = ({ event }: ErrorEvent) => ({ files: conflictFiles(event.error) ?? [] });
  return [
    {
      guard: ({ context, event }: { context: RunContext } & ErrorEvent) => conflictFiles(event.error) !== null && iterationLeft(context),
      target: 'CODE',
      actions: [{ type: 'reproposeOverConflict', params }, 'countIteration'],
    },
    {
      guard: ({ event }: ErrorEvent) => conflictFiles(event.error) !== null,
      target: 'ESCALATE',
      actions: { type: 'reproposeOverConflict', params },
    },
    { target: 'FAILED', actions: { type: 'assignError', params: ({ event }: ErrorEvent) => ({ error: event.error }) } },
  ] as const;
}
