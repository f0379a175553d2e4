// What a test run's console says, read only where no report file says it: Microsoft.Testing.Platform's
// summary counts and failed test names (a labelled last resort when the project cannot write TRX), the test
// running when a test host crashed (its stack trace is the only place that names it), and VSTest's blame-hang verdict.

import type { TestFailure, TestResult } from '../model';
import { focusStack } from './stack-frames';
import { MAX_STACK_LINES } from './trx-parser';

/** Marks every result read from console text, so no one mistakes it for the structured report. */
export const CONSOLE_LABEL =
  '(read from the console output: this test project writes no TRX report; add Microsoft.Testing.Extensions.TrxReport for exact results)';

function countAfter(output: string, label: string): number | null {
  const matches = [...output.matchAll(new RegExp(`^\\s*${label}:\\s*(\\d+)\\s*$`, 'gm'))];
  const last = matches[matches.length - 1];
  return last ? Number(last[1]) : null;
}

/** The MTP terminal summary ("total: 6 / failed: 2 / succeeded: 4 / skipped: 0") and "failed <name>" blocks. */
export function readMtpConsole(output: string, sourceName: string, label = CONSOLE_LABEL): TestResult | null {
  const total = countAfter(output, 'total');
  const failed = countAfter(output, 'failed');
  const passed = countAfter(output, 'succeeded');
  const skipped = countAfter(output, 'skipped');
  if (total === null || failed === null || passed === null) return null;
  const failures = mtpConsoleFailures(output, label);
  while (failures.length < failed) {
    failures.push({
      testName: `[test run] ${sourceName}`,
      message: `${failed} tests failed; not every name could be read. ${label}`,
      stackTrace: '',
    });
  }
  return { success: failed === 0, total, passed, failed, skipped: skipped ?? 0, failures, durationMs: 0 };
}

/** The "failed <name>" blocks alone (a run stopped before its summary still printed them). */
export function mtpConsoleFailures(output: string, label: string): TestFailure[] {
  const failures: TestFailure[] = [];
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = /^failed (\S.*?)(?: \(\d[^)]*\))?$/.exec(lines[index] ?? '');
    if (!match) continue;
    const body: string[] = [];
    for (let next = index + 1; next < lines.length && /^\s{2}/.test(lines[next] ?? ''); next++) body.push((lines[next] ?? '').trim());
    const detail = body.filter((line) => line !== '' && !line.startsWith('from '));
    const stack = detail.filter((line) => line.startsWith('at '));
    const testName = match[1] ?? '';
    failures.push({
      testName,
      message: `${detail.filter((line) => !line.startsWith('at ')).join('\n')}\n${label}`.trim(),
      stackTrace: focusStack(stack.join('\n'), testName, MAX_STACK_LINES),
    });
  }
  return failures;
}

const FRAMEWORK_FRAME = /^(System|Microsoft|Xunit|NUnit|MSTest|TUnit)\./;

/**
 * The test method a crashed test host was running: the first frame of the crash's stack trace (after
 * "Process terminated.") that belongs to neither the runtime nor a test framework.
 */
export function crashingTestIn(output: string): string | null {
  const start = output.search(/Process terminated\.|Unhandled exception\.|Stack overflow\./);
  if (start < 0) return null;
  for (const match of output.slice(start).matchAll(/^\s*at ([\w.`+<>]+)\.([\w<>`]+)\(/gm)) {
    const type = match[1] ?? '';
    if (!FRAMEWORK_FRAME.test(type) && !type.includes('<')) return `${type}.${match[2] ?? ''}`;
  }
  return null;
}

/**
 * VSTest's blame-hang verdict: the inactivity it waited for and the tests it names as running
 * ("The test running when the crash occurred:" followed by one name a line). Null when blame-hang did not fire.
 */
export function blameHang(output: string): { seconds: string; running: string[] } | null {
  const fired = /Data collector 'Blame' message: The specified inactivity time of ([^.]+?) has elapsed/.exec(output);
  if (!fired) return null;
  const running: string[] = [];
  const marker = output.indexOf('The test running when the crash occurred:');
  if (marker >= 0) {
    for (const line of output.slice(marker).split(/\r?\n/).slice(1)) {
      const name = line.trim();
      if (name === '' || /\s/.test(name)) break;
      running.push(name);
    }
  }
  return { seconds: fired[1] ?? '', running };
}
