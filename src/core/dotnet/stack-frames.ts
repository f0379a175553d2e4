// Which stack frames a person (or the coder) is shown for a failed test. A deep stack starts with the
// assertion library and the test's helpers; the frame that says which test line failed (the test
// method) is often past any cap. So a shown stack starts at the test method, then follows the calls it
// made down to where the failure was thrown; the runner's frames that called the test are dropped.

import { methodOf } from './failing-first';

const FRAME = /^\s*at\s+(.+?)(?:\(|\s+in\s|$)/;

function frameMethod(line: string): string | null {
  return FRAME.exec(line)?.[1]?.trim() ?? null;
}

/** True when the frame is the test method itself (or its async state machine, `Class.<Method>d__3.MoveNext`). */
function isTestFrame(line: string, method: string): boolean {
  const framed = frameMethod(line);
  if (framed === null || method === '') return false;
  if (framed === method) return true;
  const dot = method.lastIndexOf('.');
  if (dot <= 0) return false;
  return framed.startsWith(`${method.slice(0, dot)}.<${method.slice(dot + 1)}>`);
}

function frameLines(stackTrace: string): string[] {
  return stackTrace
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * At most `maxLines` lines: the test method's frame first, then the frames it called in call order
 * (the innermost, where the failure was thrown, always kept, and a line counting what was left out
 * between). The runner's frames that called the test method are dropped.
 * A stack with no frame of the test method keeps its first frames, as .NET prints them.
 */
export function focusStack(stackTrace: string, testName: string, maxLines: number): string {
  const lines = frameLines(stackTrace);
  const method = methodOf(testName);
  const at = lines.findIndex((line) => isTestFrame(line, method));
  if (at < 0) {
    if (lines.length <= maxLines) return lines.join('\n');
    return [...lines.slice(0, maxLines), `   … ${lines.length - maxLines} more frames`].join('\n');
  }
  // Callees of the test method, outermost first: the order the calls were made.
  const callees = lines.slice(0, at).reverse();
  const room = Math.max(3, maxLines - 1);
  const shown =
    callees.length <= room
      ? callees
      : [...callees.slice(0, room - 2), `   … ${callees.length - room + 1} frames`, callees[callees.length - 1] ?? ''];
  return [lines[at] ?? '', ...shown].join('\n');
}

/** Paths under the workspace shown relative to it ("in src/Tests/CalcTests.cs:line 12"), with forward slashes. */
export function relativeFramePaths(stackTrace: string, workspaceRoot: string): string {
  if (stackTrace === '' || workspaceRoot === '') return stackTrace;
  const roots = [...new Set([workspaceRoot, workspaceRoot.replace(/\\/g, '/')])].map((root) => root.replace(/[\\/]+$/, ''));
  let text = stackTrace;
  for (const root of roots) {
    const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    text = text.replace(new RegExp(`${escaped}[\\\\/]([^:\\n]*)`, 'g'), (_, rest: string) => rest.replace(/\\/g, '/'));
  }
  return text;
}

/**
 * A stack cut to `maxLines`. One that starts at the test method (see focusStack) keeps its first frames
 * and its last, where the failure was thrown; any other keeps its first frames, as .NET orders them.
 */
export function shortenStack(stackTrace: string, testName: string, maxLines: number): string {
  const lines = frameLines(stackTrace);
  if (lines.length <= maxLines) return lines.join('\n');
  if (maxLines < 3) return lines.slice(0, maxLines).join('\n');
  if (!isTestFrame(lines[0] ?? '', methodOf(testName))) {
    const rest = lines.slice(maxLines - 1).reduce((sum, line) => sum + framesIn(line), 0);
    return [...lines.slice(0, maxLines - 1), `   … ${rest} more frames`].join('\n');
  }
  const dropped = lines.slice(maxLines - 2, -1).reduce((sum, line) => sum + framesIn(line), 0);
  return [...lines.slice(0, maxLines - 2), `   … ${dropped} frames`, lines[lines.length - 1] ?? ''].join('\n');
}

/** How many frames a line stands for: one, or the count of a "… N frames" line left by an earlier cut. */
function framesIn(line: string): number {
  const counted = /^\s*\u2026 (\d+) (?:more )?frames$/.exec(line);
  return counted ? Number(counted[1]) : 1;
}
