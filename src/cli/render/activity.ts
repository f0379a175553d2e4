// The live activity (core/activity.ts) as compact stderr lines. `--activity quiet` prints none;
// `normal` (the default) a line per tool call and each model turn's words folded to one line;
// `verbose` the turn's words in full, what each model call cost and the run's cost so far.
// The words as they stream (a live line, or word by word) are activity-printer.ts's.
// `--activity-json` prints every event as one JSON line instead (stderr: stdout stays one
// CodingState per line).

import type { ActivityEvent } from '../../core/activity';
import type { Colors } from '../terminal';
import { formatUsage } from './state';
import type { ActivityLevel } from '../args';

const FOLDED_CHARS = 160;

export function activityLines(event: ActivityEvent, level: ActivityLevel, colors: Colors): string[] {
  if (level === 'quiet') return [];
  switch (event.kind) {
    case 'tool':
      return [event.ok ? colors.dim(`  ${event.agent} · ${event.line}`) : colors.yellow(`  ${event.agent} ✕ ${event.line}`)];
    case 'turn_end': {
      const words =
        level === 'verbose'
          ? event.text
              .trim()
              .split('\n')
              .filter((line) => line.trim() !== '')
          : folded(event.text);
      const lines = words.map((line) => `  ${event.agent} › ${line}`);
      if (level === 'verbose')
        lines.push(
          colors.dim(`  ${event.agent} turn ${event.turn}: ${formatUsage(event.usage)} (${(event.durationMs / 1000).toFixed(1)} s)`),
        );
      return lines;
    }
    case 'usage':
      return level === 'verbose' ? [colors.dim(`  run so far: ${formatUsage(event.usage)}`)] : [];
    default:
      // Streamed words are laid out as they arrive by activity-printer.ts, not as whole lines.
      return [];
  }
}

/** A turn's words on one line (none when it said nothing). */
function folded(text: string): string[] {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return [];
  return [line.length <= FOLDED_CHARS ? line : `${line.slice(0, FOLDED_CHARS - 1)}…`];
}
