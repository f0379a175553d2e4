// `npm start` installs code-server the first time: a progress line per phase with the elapsed
// seconds, a "still …" line while a phase runs long, and nothing at all once it is installed.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const SCRIPTS = path.resolve(__dirname, '..', '..', '..', 'scripts');

interface Progress {
  phase(title: string, short?: string): void;
  done(summary: string): void;
  stop(): void;
}
type CreateProgress = (options: {
  label: string;
  write: (line: string) => void;
  now: () => number;
  tickMs: number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}) => Progress;

describe('npm start: code-server install progress', () => {
  it('prints one line per phase with elapsed seconds, a still-line per tick, and the total at the end', async () => {
    const { createInstallProgress } = (await import(path.join(SCRIPTS, 'install-progress.mjs'))) as {
      createInstallProgress: CreateProgress;
    };
    const lines: string[] = [];
    let clock = 1_000_000;
    const timers = new Map<number, () => void>();
    let nextId = 1;
    const progress = createInstallProgress({
      label: 'code-server 4.100.3',
      write: (line) => lines.push(line),
      now: () => clock,
      tickMs: 15_000,
      setInterval: (fn) => {
        timers.set(nextId, fn);
        return nextId++;
      },
      clearInterval: (id) => timers.delete(id as number),
    });
    const tick = (ms: number): void => {
      clock += ms;
      for (const fn of timers.values()) fn();
    };

    progress.phase('preparing the offline ripgrep cache');
    clock += 2_400;
    progress.phase('installing into /x with npm (first time only, about a minute)', 'installing with npm');
    tick(15_000);
    tick(15_000);
    clock += 9_000;
    progress.phase('checking the install');
    progress.done('installed');
    assert.deepEqual(lines, [
      'code-server 4.100.3: preparing the offline ripgrep cache… (0 s)',
      'code-server 4.100.3: installing into /x with npm (first time only, about a minute)… (2 s)',
      'code-server 4.100.3: still installing with npm… (17 s)',
      'code-server 4.100.3: still installing with npm… (32 s)',
      'code-server 4.100.3: checking the install… (41 s)',
      'code-server 4.100.3: installed in 41 s',
    ]);
    assert.equal(timers.size, 0, 'no ticker left running after done');
  });

  it('says nothing at all when code-server is already installed', async function () {
    const installer = (await import(path.join(SCRIPTS, 'install-code-server.mjs'))) as { isInstalled: () => boolean };
    // The unit stage runs before the stage that installs code-server; installing here would take a minute.
    if (!installer.isInstalled()) this.skip();
    const result = spawnSync(process.execPath, [path.join(SCRIPTS, 'install-code-server.mjs')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, '');
  });
});
