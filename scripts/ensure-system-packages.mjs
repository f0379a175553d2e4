// The Debian packages the test stages need: chromium (the workbench client), ripgrep (stands in for
// the rg binary code-server's install would download), libkrb5-dev (a native module builds against
// it) and bubblewrap (the sandbox dotnet builds and tests run in, src/core/platform/sandbox.ts). One script for `npm test` (test/support/run-tests.mjs) and `.ci/run`: missing ones are
// installed when this runs as root; otherwise it prints the one command to run and exits 1. Quick when
// everything is there (three look-ups, no apt).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { linuxOnlySkipReason } from './tool-command.cjs';

export const SYSTEM_PACKAGES = [
  { pkg: 'chromium', present: () => onPath('chromium') },
  { pkg: 'ripgrep', present: () => onPath('rg') },
  { pkg: 'libkrb5-dev', present: () => spawnSync('dpkg', ['-s', 'libkrb5-dev'], { stdio: 'ignore' }).status === 0 },
  { pkg: 'bubblewrap', present: () => onPath('bwrap') },
];

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The packages not installed yet. */
export function missingPackages() {
  return SYSTEM_PACKAGES.filter((entry) => !entry.present()).map((entry) => entry.pkg);
}

/** Installs what is missing; returns 0 when everything is there afterwards, else prints why and returns 1. */
export function ensureSystemPackages({ log = console.log } = {}) {
  const missing = missingPackages();
  if (missing.length === 0) return 0;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  // IRONBEES_NO_APT=1: never install, only say what to run (for a machine where apt is not to be touched).
  if (!isRoot || !hasApt || process.env.IRONBEES_NO_APT === '1') {
    log(
      `Missing system packages for the tests: ${missing.join(' ')}. Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
    );
    return 1;
  }
  log(`Installing missing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-q'],
    ['install', '-y', '-q', '--no-install-recommends', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      log(
        `apt-get ${args[0]} failed (exit ${result.status}). Run: apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`,
      );
      return 1;
    }
  }
  const still = missingPackages();
  if (still.length > 0) {
    log(`Still missing after apt-get: ${still.join(' ')}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // apt-get and dpkg are Debian's; the stages that need these packages are linux-x64 only.
  const unsupported = linuxOnlySkipReason();
  if (unsupported) {
    console.log(`System packages for the VS Code tests: skipped: ${unsupported}.`);
    process.exit(0);
  }
  process.exit(ensureSystemPackages());
}
