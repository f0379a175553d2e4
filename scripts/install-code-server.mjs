// Installs code-server (it carries VS Code's server build) into the gitignored
// `.vscode-test/code-server/`, with its own package.json so it never enters the project's
// lockfile. Idempotent: a complete install of the right version is left alone.
//
// Why each knob (see docs: /work/shared/design/vscode-testing.md):
// - 4.100.3 is VS Code 1.100.3, the last line that runs on Node 20.
// - npm_config_unsafe_perm: its postinstall refuses to run as root otherwise (CI is root).
// - npm_config_yes: node-pty's postinstall runs `npx node-gyp`, which would prompt.
// - @vscode/ripgrep downloads `rg` from GitHub at postinstall (no internet here); it first looks in
//   $TMPDIR for a cached tarball, so we put one there holding Debian's `rg`, in a fresh TMPDIR.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstallProgress } from './install-progress.mjs';
import { linuxOnlySkipReason, npmCommand } from './tool-command.cjs';

export const CODE_SERVER_VERSION = '4.100.3';
const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const codeServerHome = join(root, '.vscode-test', 'code-server');
const packageDir = join(codeServerHome, 'node_modules', 'code-server');
const doneMarker = join(codeServerHome, 'installed-version');

/** Paths other scripts start things from. */
export const codeServerPaths = {
  cli: join(packageDir, 'out', 'node', 'entry.js'),
  serverMain: join(packageDir, 'lib', 'vscode', 'out', 'server-main.js'),
};

export function isInstalled() {
  if (!existsSync(doneMarker) || !existsSync(codeServerPaths.serverMain)) return false;
  const marker = readFileSync(doneMarker, 'utf8').trim();
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return marker === CODE_SERVER_VERSION && pkg.version === CODE_SERVER_VERSION;
}

function findRipgrep() {
  const found = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || !path) {
    throw new Error('ripgrep (`rg`) is required to install code-server offline: apt-get install -y ripgrep');
  }
  return path;
}

/** A fresh TMPDIR holding the tarball @vscode/ripgrep's postinstall looks for before downloading. */
function prepareRipgrepCache(rgPath) {
  const tmp = mkdtempSync(join(tmpdir(), 'ironbees-code-server-install-'));
  const staging = join(tmp, 'staging');
  mkdirSync(staging);
  copyFileSync(rgPath, join(staging, 'rg'));
  const cacheDir = join(tmp, RIPGREP_CACHE);
  mkdirSync(cacheDir);
  const tar = spawnSync('tar', ['-czf', join(cacheDir, RIPGREP_TARBALL), '-C', staging, 'rg'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (tar.status !== 0) throw new Error('could not pack the ripgrep tarball');
  return tmp;
}

/** npm's own output goes to a log, shown only if the install fails: a working install stays quiet. */
function npmInstall(tmp, logPath) {
  return new Promise((resolve, reject) => {
    const npm = npmCommand(['install', '--no-audit', '--no-fund', '--loglevel', 'error']);
    const child = spawn(npm.cmd, npm.args, {
      cwd: codeServerHome,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: tmp, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
    });
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      writeFileSync(logPath, log);
      if (code === 0) resolve();
      else reject(new Error(`npm install of code-server failed (exit ${code}); its output (${logPath}) ends:\n${log.slice(-4000)}`));
    });
  });
}

/** Silent when code-server is already installed; otherwise a progress line per phase on stderr. */
export async function installCodeServer(write = (line) => console.error(line)) {
  if (isInstalled()) return;
  const unsupported = linuxOnlySkipReason();
  if (unsupported) throw new Error(`code-server is installed for linux-x64 only (the offline ripgrep trick): ${unsupported}`);
  const progress = createInstallProgress({ label: `code-server ${CODE_SERVER_VERSION}`, write });
  try {
    progress.phase('preparing the offline ripgrep cache');
    const tmp = prepareRipgrepCache(findRipgrep());
    mkdirSync(codeServerHome, { recursive: true });
    rmSync(doneMarker, { force: true });
    writeFileSync(
      join(codeServerHome, 'package.json'),
      `${JSON.stringify({ name: 'ironbees-code-server', private: true, dependencies: { 'code-server': CODE_SERVER_VERSION } }, null, 2)}\n`,
    );
    progress.phase(`installing into ${codeServerHome} with npm (first time only, about a minute)`, 'installing with npm');
    try {
      await npmInstall(tmp, join(codeServerHome, 'npm-install.log'));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    progress.phase('checking the install');
    if (!existsSync(codeServerPaths.serverMain)) throw new Error(`installed, but ${codeServerPaths.serverMain} is missing`);
    writeFileSync(doneMarker, `${CODE_SERVER_VERSION}\n`);
    progress.done('installed');
  } finally {
    progress.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const unsupported = linuxOnlySkipReason();
  if (unsupported) {
    console.error(`install-code-server: skipped: ${unsupported}.`);
    process.exit(0);
  }
  try {
    await installCodeServer();
  } catch (error) {
    console.error(`install-code-server: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
