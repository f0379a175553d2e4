// What xunit v3's own runner prints, read only when it was stopped before writing its report: the tests
// its long-running detection (`-longRunning <seconds>`) names ("[Long Running Test] '<name>', Elapsed:
// hh:mm:ss", repeated while the test runs), and the tests that failed before ("    <name> [FAIL]"
// followed by the indented message, then "Stack Trace:").

import type { TestFailure } from '../model';
import type { HungTests } from './mtp-hang';

const LONG_RUNNING = /\[Long Running Test\] '(.+?)', Elapsed: (\d+:\d\d:\d\d)/g;

/** The tests the long-running detection reported, with the longest time it saw; null when it reported none. */
export function longRunningTests(output: string): HungTests | null {
  const names = new Set<string>();
  let ranFor = '';
  for (const match of output.matchAll(LONG_RUNNING)) {
    names.add(match[1] ?? '');
    if ((match[2] ?? '') > ranFor) ranFor = match[2] ?? '';
  }
  return names.size > 0 ? { names: [...names], ranFor } : null;
}

/** The "[FAIL]" blocks of the default reporter: each failed test's name and its message (no stack). */
export function nativeFailures(output: string, label: string): TestFailure[] {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  const failures: TestFailure[] = [];
  for (let index = 0; index < lines.length; index++) {
    const match = /^\s+(\S.*?) \[FAIL\]\s*$/.exec(lines[index] ?? '');
    if (!match) continue;
    const message: string[] = [];
    for (let next = index + 1; next < lines.length; next++) {
      const line = lines[next] ?? '';
      if (!/^\s{6}/.test(line) || /^\s*Stack Trace:/.test(line)) break;
      message.push(line.trim());
    }
    failures.push({ testName: match[1] ?? '', message: `${message.join('\n')}\n${label}`.trim(), stackTrace: '' });
  }
  return failures;
}
