// The one sandbox every `dotnet` child that builds or runs code goes through (builds, tests, restore,
// the C# engine's design-time builds). What runs there is not Ironbees' own code: tests the model wrote,
// a cloned repository's MSBuild targets. On Linux it runs inside bubblewrap (`bwrap`):
//  - no network (its own network namespace: only a loopback of its own), except for `dotnet restore`,
//    which may reach the package feeds;
//  - the whole file system read-only, except the workspace, a private temp folder (its /tmp) and the
//    NuGet caches;
//  - the home folder replaced by an empty read-only one with only the NuGet caches, the NuGet
//    configuration (read-only) and the dotnet CLI home (an SDK installed there read-only) put back, so the person's secrets (~/.ssh, ~/.aws, ~/.config, …) cannot be read; secret
//    folders inside the workspace (a workspace that is the home folder) are masked too;
//  - the person's session sockets (XDG_RUNTIME_DIR: D-Bus, gpg-agent; the Docker socket) hidden;
//  - its own user namespace, so even a process running as the same user cannot read Ironbees' own
//    /proc/<pid>/environ (where a model key may be).
// No pid namespace, on purpose: the MSBuild server and reused nodes outlive the command that started
// them, and the process runner reaps them by process group. The private temp folder is the same for
// every command of this process on one workspace, so the next build there finds those servers (their
// sockets are there) and they stay inside the sandbox they were started in.
// `--sandbox auto|on|off` (contracts.md, Sandbox): auto runs sandboxed where bwrap works and says once
// when it does not; on refuses to run without it; off runs as before.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../errors';

export const SANDBOX_MODES = ['auto', 'on', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const DEFAULT_SANDBOX_MODE: SandboxMode = 'auto';

/** The bubblewrap binary; default `bwrap` on PATH. */
export const BWRAP_ENV = 'IRONBEES_BWRAP';

/** Folders and files under the home folder that hold credentials (contracts.md lists the first eight). */
export const SECRET_HOME_PATHS: readonly string[] = Object.freeze([
  '.ssh',
  '.aws',
  '.azure',
  '.config',
  '.docker',
  '.kube',
  '.gnupg',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.password-store',
  '.vault-token',
  '.local/share/keyrings',
]);

export type SandboxAvailability = { available: true; bwrap: string } | { available: false; reason: string };

export interface SandboxState {
  mode: SandboxMode;
  /** True when commands run sandboxed. */
  active: boolean;
  /** Why there is no sandbox (mode auto or on, none available). */
  reason?: string;
}

let mode: SandboxMode = DEFAULT_SANDBOX_MODE;
let probed: { key: string; answer: SandboxAvailability } | null = null;
let noticeGiven = false;
const privateTemps = new Map<string, string>();

/** Sets the process's mode (the CLI's --sandbox, the editor's `ironbees.sandbox`). */
export function setSandboxMode(next: SandboxMode): void {
  mode = next;
}

export function sandboxMode(): SandboxMode {
  return mode;
}

/** Whether bwrap is there and can make its namespaces here (a container may forbid user namespaces). Probed once. */
export function sandboxAvailability(env: NodeJS.ProcessEnv = process.env): SandboxAvailability {
  const bwrap = env[BWRAP_ENV]?.trim() || 'bwrap';
  const key = `${process.platform}\n${bwrap}\n${env.PATH ?? ''}`;
  if (probed?.key === key) return probed.answer;
  const answer = probe(bwrap, env);
  probed = { key, answer };
  return answer;
}

function probe(bwrap: string, env: NodeJS.ProcessEnv): SandboxAvailability {
  if (process.platform !== 'linux') {
    return { available: false, reason: `Ironbees has no sandbox on ${process.platform} yet (see SECURITY.md, Sandbox)` };
  }
  const result = spawnSync(bwrap, ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    env: { PATH: env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return {
        available: false,
        reason: `bubblewrap (${bwrap}) is not installed; install it with \`apt-get install bubblewrap\` (or your distribution's bubblewrap package)`,
      };
    return { available: false, reason: `bubblewrap (${bwrap}) could not start: ${result.error.message}` };
  }
  if (result.status !== 0) {
    const said = (result.stderr || '').trim().split('\n')[0] ?? '';
    return {
      available: false,
      reason: `bubblewrap cannot create its namespaces here (${said || `exit ${result.status}`}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or an AppArmor profile for bwrap on Ubuntu 24.04+)`,
    };
  }
  return { available: true, bwrap };
}

/**
 * The process's sandbox as its mode and this machine decide. Mode `on` without a sandbox is a
 * ConfigurationError (exit 2); `auto` without one says why through `warn`, once per process.
 */
export function checkSandbox(warn?: (message: string) => void, env: NodeJS.ProcessEnv = process.env): SandboxState {
  if (mode === 'off') return { mode, active: false };
  const availability = sandboxAvailability(env);
  if (availability.available) return { mode, active: true };
  if (mode === 'on') {
    throw new ConfigurationError(
      `--sandbox on: no sandbox is available: ${availability.reason}. Use --sandbox auto or off to run without one.`,
      {
        sandbox: 'unavailable',
      },
    );
  }
  if (!noticeGiven && warn) {
    noticeGiven = true;
    warn(`Builds and tests run without a sandbox: ${availability.reason}.`);
  }
  return { mode, active: false, reason: availability.reason };
}

/** True when dotnet children of this process run sandboxed. */
export function sandboxActive(): boolean {
  return checkSandbox().active;
}

export interface SandboxSpec {
  /** Writable inside: the workspace (its obj/ and bin/ included). */
  workspaceRoot: string;
  /** Network for this command (restore only). */
  network: boolean;
  /** A new session without a controlling terminal: for children not already detached into their own. */
  newSession?: boolean;
  /** Folders that must stay readable even under the hidden home folder or the private /tmp (the program run, the C# engine's own). */
  readable?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export interface SandboxedCommand {
  command: string;
  args: string[];
}

/**
 * `command args` as this process's sandbox runs it: unchanged when none is active, else bwrap with the
 * binds above and `--` before the command. Refuses (ConfigurationError) in mode `on` without one.
 */
export function sandboxedCommand(command: string, args: readonly string[], spec: SandboxSpec): SandboxedCommand {
  const state = checkSandbox();
  if (!state.active) return { command, args: [...args] };
  const availability = sandboxAvailability(spec.env);
  if (!availability.available) return { command, args: [...args] };
  return { command: availability.bwrap, args: [...bwrapArgs(spec), '--', command, ...args] };
}

/** The bwrap options for `spec` (exported for tests). */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const env = spec.env ?? process.env;
  const home = os.homedir();
  const workspace = path.resolve(spec.workspaceRoot);
  const args = ['--unshare-user', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!spec.network) args.push('--unshare-net');
  if (spec.newSession) args.push('--new-session');
  args.push(
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    temporaryFolder(workspace),
    '/tmp',
    '--setenv',
    'TMPDIR',
    '/tmp',
  );
  // The session's sockets (D-Bus, gpg-agent, a rootless Docker) live here; a read-only bind does not stop connect().
  const runtimeDir = env.XDG_RUNTIME_DIR ?? (typeof process.getuid === 'function' ? `/run/user/${process.getuid()}` : '');
  if (runtimeDir && isDirectory(runtimeDir)) args.push('--tmpfs', runtimeDir);
  // /var/run is usually a link to /run: the socket is masked once, where it really is.
  const sockets = new Set(['/var/run/docker.sock', '/run/docker.sock'].filter(exists).map((socket) => realPath(socket)));
  for (const socket of sockets) args.push('--ro-bind', '/dev/null', socket);
  const hideHome = Boolean(home) && home !== '/' && isDirectory(home) && !isInside(home, workspace);
  if (hideHome) args.push('--tmpfs', home);
  for (const { dir, writable } of homeFoldersKept(home, env)) args.push(writable ? '--bind' : '--ro-bind', dir, dir);
  for (const dir of writableOutsideHome(home, env)) args.push('--bind', dir, dir);
  // The program run, the engine's folder and the local feeds IRONBEES_NUGET_SOURCE adds: readable where hidden.
  for (const dir of [...(spec.readable ?? []), ...localFeeds(env)]) {
    const underTemp = [path.resolve('/tmp'), path.resolve(os.tmpdir())].some((temp) => isInside(dir, temp) && path.resolve(dir) !== temp);
    const hidden = (hideHome && isInside(dir, home)) || underTemp;
    if (hidden && isDirectory(dir)) args.push('--ro-bind', dir, dir);
  }
  // Bound before the empty home turns read-only: its mount point is made in it.
  args.push('--bind', workspace, workspace);
  if (hideHome) args.push('--remount-ro', home);
  // Secrets the workspace bind brought back (a workspace that is, or holds, the home folder).
  for (const secret of SECRET_HOME_PATHS.map((name) => path.join(home, name))) {
    if (!isInside(secret, workspace) || !exists(secret)) continue;
    if (isDirectory(secret)) args.push('--tmpfs', secret);
    else args.push('--ro-bind', '/dev/null', secret);
  }
  args.push('--chdir', workspace);
  return args;
}

/** What an SDK installed into ~/.dotnet (dotnet-install.sh's default) is made of. */
const DOTNET_INSTALL_ENTRIES: readonly string[] = ['dotnet', 'sdk', 'shared', 'host', 'packs', 'sdk-manifests', 'templates', 'metadata'];

/** The user NuGet.Config NuGet itself writes on its first run. */
const DEFAULT_NUGET_CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
  </packageSources>
</configuration>
`;

interface KeptFolder {
  dir: string;
  writable: boolean;
}

/**
 * What .NET needs from the home folder: the NuGet package cache and HTTP cache (written by restore), the
 * NuGet configuration (read: feeds) and the dotnet CLI home (written: sentinels, tool caches; an SDK
 * installed there is read-only). Only those under the home folder; the writable ones are created when missing.
 */
function homeFoldersKept(home: string, env: NodeJS.ProcessEnv): KeptFolder[] {
  const kept: KeptFolder[] = [];
  for (const dir of nugetCaches(home, env)) {
    if (!isInside(dir, home)) continue;
    ensureDirectory(dir);
    kept.push({ dir, writable: true });
  }
  // Read-only: a test must not add a package source the person's own restores would then use. NuGet
  // writes this default file on its first run when there is none; written here, as NuGet would.
  const nugetConfig = path.join(home, '.nuget', 'NuGet');
  ensureFile(path.join(nugetConfig, 'NuGet.Config'), DEFAULT_NUGET_CONFIG);
  if (isDirectory(nugetConfig)) kept.push({ dir: nugetConfig, writable: false });
  // The CLI writes its first-run sentinels and tool caches there; an SDK installed there stays read-only.
  const cliHome = path.join(env.DOTNET_CLI_HOME || home, '.dotnet');
  if (isInside(cliHome, home)) {
    ensureDirectory(cliHome);
    kept.push({ dir: cliHome, writable: true });
    for (const entry of DOTNET_INSTALL_ENTRIES) {
      const dir = path.join(cliHome, entry);
      if (exists(dir)) kept.push({ dir, writable: false });
    }
  }
  return kept;
}

/** The folders among the feeds IRONBEES_NUGET_SOURCE adds (`;`-separated; URLs are reached by restore's network). */
function localFeeds(env: NodeJS.ProcessEnv): string[] {
  return (env.IRONBEES_NUGET_SOURCE ?? '')
    .split(';')
    .map((feed) => feed.trim())
    .filter((feed) => path.isAbsolute(feed))
    .map((feed) => path.resolve(feed));
}

/** The NuGet caches set outside the home folder (NUGET_PACKAGES=/opt/…): writable too. */
function writableOutsideHome(home: string, env: NodeJS.ProcessEnv): string[] {
  return nugetCaches(home, env).filter((dir) => !isInside(dir, home) && isDirectory(dir));
}

function nugetCaches(home: string, env: NodeJS.ProcessEnv): string[] {
  const caches = [
    env.NUGET_PACKAGES || path.join(home, '.nuget', 'packages'),
    env.NUGET_HTTP_CACHE_PATH || path.join(home, '.local', 'share', 'NuGet'),
  ];
  if (env.NUGET_PLUGINS_CACHE_PATH) caches.push(env.NUGET_PLUGINS_CACHE_PATH);
  return caches.map((dir) => path.resolve(dir));
}

/**
 * The private temp folder of a workspace, one per process: build servers started by one command serve
 * the next (their sockets are there), and only for that workspace (a server sees the workspace its
 * sandbox was made for, not another one's).
 */
function temporaryFolder(workspace: string): string {
  const known = privateTemps.get(workspace);
  if (known && isDirectory(known)) return known;
  const created = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-sandbox-'));
  privateTemps.set(workspace, created);
  process.once('exit', () => fs.rmSync(created, { recursive: true, force: true }));
  return created;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function exists(file: string): boolean {
  return fs.existsSync(file);
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function ensureFile(file: string, content: string): void {
  if (exists(file)) return;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { flag: 'wx' });
  } catch {
    // Another process wrote it first, or the folder is not ours to write: NuGet names the problem.
  }
}

function ensureDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch {
    // bwrap names the folder it could not bind.
  }
}

/** Forgets the probe and the notice (tests that change PATH or the bwrap binary). */
export function resetSandboxForTests(): void {
  probed = null;
  noticeGiven = false;
}
