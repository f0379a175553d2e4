// What the "needs you" notification says: the request, shortened at a word (never mid-word, with an
// ellipsis when cut), and why the run stopped, in the person's terms. Pure, so a plain-Node test reads it.

import type { CodingState } from '../core/model';

const REQUEST_CHARS = 60;

/** The request's first line, cut at the last whole word within `max` characters, with "…" when cut. */
export function shortRequest(request: string, max = REQUEST_CHARS): string {
  const line = request.trim().split('\n')[0].trim();
  if (line.length <= max) return line;
  const head = line.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.–—-]+$/, '')}…`;
}

interface Attempt {
  iteration?: number;
  outcome?: string;
}

/** Why the run waits for the person, from its state. */
export function escalationWhy(state: CodingState): string {
  const help = state.metadata.helpRequest as { reason?: string; budget?: { message?: string } } | undefined;
  if (help?.budget?.message) return help.budget.message;
  if (help?.reason) return `the agent asked for help: ${help.reason}`;
  const attempts = (state.metadata.attempts as Attempt[] | undefined) ?? [];
  let rejected = 0;
  for (let i = attempts.length - 1; i >= 0 && attempts[i].outcome === 'rejected' && attempts[i].iteration === state.iterationCount; i--)
    rejected++;
  if (rejected > 0) return `you rejected ${rejected} proposal${rejected === 1 ? '' : 's'} in a row`;
  return `still failing after ${state.iterationCount} iteration${state.iterationCount === 1 ? '' : 's'}`;
}

export function escalationNotice(state: CodingState): string {
  const why = escalationWhy(state).trim();
  return `Ironbees needs you: "${shortRequest(state.userRequest)}" — ${/[.!?…]$/.test(why) ? why : `${why}.`}`;
}
