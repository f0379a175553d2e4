// A hung test on Microsoft.Testing.Platform, named. MTP's own `--timeout` does not stop a test that never
// returns (Thread.Sleep(Infinite) kept running past it here); Ironbees' time limit does, and a run that
// reached it is run again with the hang dump (hang-budget.ts). The HangDump extension (Microsoft.Testing.Extensions.HangDump) watches the
// test host: when no test finishes for `--hangdump-timeout`, it writes the tests still running into
// `<app>_<pid>_hang.log` in the results folder ("[hh:mm:ss] <test name>" a line), takes a dump and kills the
// host (exit code 7). That file is the platform's machine-readable word on which test hung; the console says
// the same only in colour-coded prose. Without the extension there is no honest way to name the test.

import * as path from 'node:path';
import type { Host } from '../host';
import { hangTimeoutSeconds } from './hang-budget';
import type { TestRunnerFacts } from './project-file';

/**
 * The arguments that make MTP stop a test that runs longer than the rest of the time (less the margin,
 * hang-budget.ts) and name it; none when the project lacks the extension (an unknown option is exit
 * code 5). The smallest dump type: the dump itself is not read, and it is deleted with the log.
 */
export function hangDumpArgs(facts: TestRunnerFacts | undefined, remainingMs: number): string[] {
  const seconds = hangTimeoutSeconds(remainingMs);
  if (!facts?.hangDump || seconds === null) return [];
  return ['--hangdump', '--hangdump-timeout', `${seconds}s`, '--hangdump-type', 'Mini'];
}

export interface HungTests {
  /** The tests running when the hang dump was taken, as the platform names them. */
  names: string[];
  /** How long the longest of them had run ("00:00:25"). */
  ranFor: string;
}

/** "[00:00:25] Ledger.XunitTests.HangTests.WaitsForever" lines; blank and other lines are skipped. */
export function readHangLog(text: string): HungTests {
  const names: string[] = [];
  let ranFor = '';
  for (const line of text.split(/\r?\n/)) {
    const match = /^\[(\d+(?:\.\d+)?:\d\d:\d\d(?:\.\d+)?)\]\s+(\S.*?)\s*$/.exec(line);
    if (!match) continue;
    if ((match[1] ?? '') > ranFor) ranFor = match[1] ?? '';
    names.push(match[2] ?? '');
  }
  return { names: [...new Set(names)], ranFor };
}

/**
 * Reads the hang logs the run left directly in `resultsDir` and deletes them with their dumps (a dump is
 * tens of megabytes). Null when no hang dump was taken; no names when one was taken but no test was
 * running (the platform writes the log only when it has names).
 */
export async function takeHungTests(host: Host, resultsDir: string): Promise<HungTests | null> {
  const listed = await host.fs.listFiles(resultsDir, { maxFiles: 5_000 }).catch(() => [] as string[]);
  const own = listed.filter((file) => !file.includes('/') && /_hang\.(log|dmp)$/.test(file));
  const logs: HungTests[] = [];
  for (const file of own) {
    const absPath = path.join(resultsDir, file);
    if (file.endsWith('.log')) {
      const bytes = await host.fs.readFile(absPath);
      logs.push(readHangLog(bytes === null ? '' : new TextDecoder().decode(bytes)));
    }
    await host.fs.deleteFile(absPath).catch(() => undefined);
  }
  if (own.length === 0) return null;
  return {
    names: [...new Set(logs.flatMap((log) => log.names))],
    ranFor:
      logs
        .map((log) => log.ranFor)
        .sort()
        .pop() ?? '',
  };
}
