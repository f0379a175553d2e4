// Finds the processes that carry a marker variable in their environment (Linux /proc): everything a
// child process started inherits its environment, so a marker set for one CLI run finds what that run
// left behind (MSBuild server and nodes, compiler server, test hosts) and nothing of anyone else's.

import { readFileSync, readdirSync } from 'node:fs';

export interface MarkedProcess {
  pid: number;
  command: string;
}

/** True where /proc can be read (Linux). */
export function canListProcesses(): boolean {
  try {
    readdirSync('/proc');
    readFileSync('/proc/self/environ');
    return true;
  } catch {
    return false;
  }
}

/** Live processes whose environment holds `name=value` exactly. */
export function processesMarked(name: string, value: string): MarkedProcess[] {
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const found: MarkedProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`), Buffer.from([0])]);
      if (!environ.includes(needle)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`).toString('utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
