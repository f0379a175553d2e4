// One way to start `dotnet`: the environment that makes it quiet and fast, and a clear error when the
// SDK is missing.
//
// Build servers (measured in bench/validation.bench.ts, see bench/README.md): with the MSBuild server,
// reused MSBuild nodes and the shared compiler, an incremental one-project build takes a fraction of
// the time, and the validator runs every iteration. They outlive the command, so:
//  - each process, and in it each workspace (a git worktree is one), gets its own MSBuild handshake
//    salt: our servers are ours only and serve one worktree (never another tool's or another
//    worktree's obj/; `shutdownBuildServers` stops only that workspace's), and they exit after 5 idle minutes;
//  - a killed build or test run can leave a hung task or test host in a server; NodeProcessRunner reaps
//    the process groups that earlier commands left behind when it kills one (POSIX);
//  - Windows has no process groups, and a server started by a build is not in the tree `taskkill /T`
//    stops: after a time limit or a Cancel it would live on and hold obj/ locked (MSB3027 on the next
//    build). So on Windows no command starts servers: each build is one tree, stopped whole.

import { ConfigurationError } from '../errors';
import type { Host, RunOptions, RunResult } from '../host';
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { sandboxActive } from '../platform/sandbox';
import { extraSourcesEnv } from './package-sources';

export const DOTNET_NOT_FOUND_MESSAGE =
  'dotnet was not found on PATH; install the .NET SDK (https://dot.net/download) or add its folder to PATH';

/** Per process, so two Ironbees processes (or a developer's own builds) never share MSBuild nodes. */
const HANDSHAKE_SALT = `ironbees-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * The salt of one workspace of this process: two worktrees built by one process (phases side by side)
 * never share an MSBuild server or node, whose caches hold the other's paths.
 */
export function handshakeSalt(workspaceRoot?: string): string {
  if (workspaceRoot === undefined) return HANDSHAKE_SALT;
  return `${HANDSHAKE_SALT}-${createHash('sha256').update(path.resolve(workspaceRoot)).digest('hex').slice(0, 12)}`;
}

const SERVER_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/** Set once a dotnet command of this process may have started build servers; until then there is nothing to stop. */
let serversMayRun = false;

/**
 * English output whatever the machine's locale: the parsers read it, and so does the model. The feeds
 * of IRONBEES_NUGET_SOURCE ride along, so every restore (build, test, the baseline) sees them.
 */
function quietEnv(): Record<string, string> {
  return {
    DOTNET_CLI_TELEMETRY_OPTOUT: '1',
    DOTNET_NOLOGO: '1',
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
    DOTNET_CLI_UI_LANGUAGE: 'en',
    ...extraSourcesEnv(),
  };
}

const NO_SERVER_ENV: Readonly<Record<string, string>> = {
  MSBUILDDISABLENODEREUSE: '1',
  DOTNET_CLI_USE_MSBUILD_SERVER: '0',
  UseSharedCompilation: 'false',
};

/** Set IRONBEES_DOTNET_BUILD_SERVERS=0 to build without servers (slower, nothing left running). Never on Windows. */
export function buildServersEnabled(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32' && process.env.IRONBEES_DOTNET_BUILD_SERVERS !== '0';
}

/** For `dotnet build` / `dotnet restore`; `workspaceRoot` scopes the build servers to that workspace. */
export function buildEnv(platform: NodeJS.Platform = process.platform, workspaceRoot?: string): Record<string, string> {
  if (!buildServersEnabled(platform)) return { ...quietEnv(), ...NO_SERVER_ENV };
  serversMayRun = true;
  return {
    ...quietEnv(),
    MSBUILDDISABLENODEREUSE: '0',
    DOTNET_CLI_USE_MSBUILD_SERVER: '1',
    UseSharedCompilation: 'true',
    MSBUILDNODEHANDSHAKESALT: handshakeSalt(workspaceRoot),
    // Idle servers exit after this long (MSBuild's default is 15 min): long enough to span a coder turn,
    // short enough that a finished run does not leave them around.
    MSBUILDNODECONNECTIONTIMEOUT: String(SERVER_IDLE_TIMEOUT_MS),
  };
}

/**
 * For `dotnet test --no-build`. With servers, the VSTest target runs in the warm MSBuild server (about a
 * second less per test project) and the test host is a child of the server, not of the command: on POSIX
 * the runner reaps the server's process group when a hung test is killed. Windows has no process groups,
 * so there the test command runs without servers and its tree holds the test host.
 */
export function testEnv(platform: NodeJS.Platform = process.platform, workspaceRoot?: string): Record<string, string> {
  return buildEnv(platform, workspaceRoot);
}

/**
 * For `dotnet restore`, the one command the sandbox lets reach the network: no MSBuild server or reused
 * node is started there, so no later build runs in a process that has the network.
 */
export function restoreEnv(): Record<string, string> {
  return { ...quietEnv(), ...NO_SERVER_ENV };
}

export type DotnetRunOptions = Omit<RunOptions, 'env'> & { env: Record<string, string> };

/**
 * Runs `dotnet`, inside the sandbox when one is active (../sandbox.ts: no network but for `restore`,
 * writes only to the workspace, the temp folder and the NuGet caches); a missing SDK becomes a
 * ConfigurationError (exit code 2 in the CLI).
 */
export async function runDotnet(host: Host, args: readonly string[], options: DotnetRunOptions): Promise<RunResult> {
  try {
    return await host.process.run('dotnet', args, {
      ...options,
      sandbox: { workspaceRoot: host.workspaceRoot, network: args[0] === 'restore' },
    });
  } catch (error) {
    if (isNotFound(error)) throw new ConfigurationError(DOTNET_NOT_FOUND_MESSAGE, { command: 'dotnet' });
    throw error;
  }
}

/** True when this host's dotnet commands run in the sandbox (its runner honours it, and one is active). */
export function runsSandboxed(host: Host): boolean {
  return host.process.sandboxes === true && sandboxActive();
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Stops the MSBuild server and nodes this process started for the host's workspace (they would
 * otherwise idle for minutes); another worktree's servers keep serving it.
 * For the end of a CLI run and for test suites; harmless when none run.
 */
export async function shutdownBuildServers(host: Host, timeoutMs = 30_000): Promise<void> {
  // No build ran (a run that stopped before its baseline): spare the second or so `dotnet` takes.
  if (!buildServersEnabled() || !serversMayRun) return;
  try {
    await runDotnet(host, ['build-server', 'shutdown', '--msbuild'], {
      cwd: host.workspaceRoot,
      timeoutMs,
      env: buildEnv(process.platform, host.workspaceRoot),
    });
  } catch (error) {
    if (error instanceof ConfigurationError) return;
    host.logger.warn(`Could not stop the dotnet build servers: ${String(error)}`);
  }
}
