// One way to start `dotnet`: the environment that makes it quiet and fast, and a clear error when the
// SDK is missing.
//
// Build servers (measured in bench/validation.bench.ts, see bench/README.md): with the MSBuild server,
// reused MSBuild nodes and the shared compiler, an incremental one-project build takes a fraction of
// the time, and the validator runs every iteration. They outlive the command, so:
//  - each process gets its own MSBuild handshake salt: our servers are ours only (never another tool's,
//    and `shutdownBuildServers` stops only ours), and they exit after 5 idle minutes;
//  - a killed build or test run can leave a hung task or test host in a server; NodeProcessRunner reaps
//    the process groups that earlier commands left behind when it kills one (POSIX; on Windows tests run
//    without servers so the command's own tree holds the test host).

import { ConfigurationError } from '../errors';
import type { Host, RunOptions, RunResult } from '../host';
import { randomBytes } from 'node:crypto';

export const DOTNET_NOT_FOUND_MESSAGE =
  'dotnet was not found on PATH; install the .NET SDK (https://dot.net/download) or add its folder to PATH';

/** Per process, so two Ironbees processes (or a developer's own builds) never share MSBuild nodes. */
const HANDSHAKE_SALT = `ironbees-${process.pid}-${randomBytes(4).toString('hex')}`;

const SERVER_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/** Set once a dotnet command of this process may have started build servers; until then there is nothing to stop. */
let serversMayRun = false;

/** English output whatever the machine's locale: the parsers read it, and so does the model. */
const QUIET_ENV: Readonly<Record<string, string>> = {
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_NOLOGO: '1',
  DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
  DOTNET_CLI_UI_LANGUAGE: 'en',
};

const NO_SERVER_ENV: Readonly<Record<string, string>> = {
  MSBUILDDISABLENODEREUSE: '1',
  DOTNET_CLI_USE_MSBUILD_SERVER: '0',
  UseSharedCompilation: 'false',
};

/** Set IRONBEES_DOTNET_BUILD_SERVERS=0 to build without servers (slower, nothing left running). */
export function buildServersEnabled(): boolean {
  return process.env.IRONBEES_DOTNET_BUILD_SERVERS !== '0';
}

/** For `dotnet build` / `dotnet restore`. */
export function buildEnv(): Record<string, string> {
  if (!buildServersEnabled()) return { ...QUIET_ENV, ...NO_SERVER_ENV };
  serversMayRun = true;
  return {
    ...QUIET_ENV,
    MSBUILDDISABLENODEREUSE: '0',
    DOTNET_CLI_USE_MSBUILD_SERVER: '1',
    UseSharedCompilation: 'true',
    MSBUILDNODEHANDSHAKESALT: HANDSHAKE_SALT,
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
export function testEnv(): Record<string, string> {
  return process.platform === 'win32' ? { ...QUIET_ENV, ...NO_SERVER_ENV } : buildEnv();
}

export type DotnetRunOptions = Omit<RunOptions, 'env'> & { env: Record<string, string> };

/** Runs `dotnet`; a missing SDK becomes a ConfigurationError (exit code 2 in the CLI). */
export async function runDotnet(host: Host, args: readonly string[], options: DotnetRunOptions): Promise<RunResult> {
  try {
    return await host.process.run('dotnet', args, options);
  } catch (error) {
    if (isNotFound(error)) throw new ConfigurationError(DOTNET_NOT_FOUND_MESSAGE, { command: 'dotnet' });
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Stops the MSBuild server and nodes this process started (they would otherwise idle for minutes).
 * For the end of a CLI run and for test suites; harmless when none run.
 */
export async function shutdownBuildServers(host: Host, timeoutMs = 30_000): Promise<void> {
  // No build ran (a run that stopped before its baseline): spare the second or so `dotnet` takes.
  if (!buildServersEnabled() || !serversMayRun) return;
  try {
    await runDotnet(host, ['build-server', 'shutdown', '--msbuild'], { cwd: host.workspaceRoot, timeoutMs, env: buildEnv() });
  } catch (error) {
    if (error instanceof ConfigurationError) return;
    host.logger.warn(`Could not stop the dotnet build servers: ${String(error)}`);
  }
}
