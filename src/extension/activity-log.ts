// The live activity in the "Ironbees" output channel, at debug level: a line per tool call, each
// model turn's words on one line with what it cost, and the run's usage so far. Streamed words are
// not logged piece by piece: the turn's line has them all.

import type { ActivityEvent } from '../core/activity';
import type { Usage } from '../core/model';

export function activityLogLine(event: ActivityEvent): string | null {
  switch (event.kind) {
    case 'tool':
      return `Run ${event.runId} ${event.agent}: ${event.ok ? '' : 'FAILED '}${event.line}`;
    case 'turn_end': {
      const words = event.text.replace(/\s+/g, ' ').trim();
      return `Run ${event.runId} ${event.agent} turn ${event.turn} (${tokens(event.usage)}, ${event.durationMs} ms)${words ? `: ${words}` : ''}`;
    }
    case 'usage':
      return `Run ${event.runId} so far: ${tokens(event.usage)}`;
    default:
      return null;
  }
}

function tokens(usage: Usage): string {
  const cost = usage.costUnknown ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`;
  return `${usage.inputTokens} in / ${usage.outputTokens} out tokens, ${cost}`;
}
