// The check every run starts with, in the CLI and in VS Code: is there a .NET SDK this workspace can use?
// A global.json that pins an SDK which is not installed makes every dotnet command fail with a long
// hint whose first lines name neither version; the person is told instead which file pins which SDK,
// and which SDKs are installed, before anything is written.

import { ConfigurationError, errorMessage } from '../errors';
import type { ProcessRunner } from '../host';

const CHECK_TIMEOUT_MS = 60_000;

export interface SdkPinFailure {
  requested: string;
  globalJson: string;
}

/** Reads dotnet's "A compatible .NET SDK was not found" report: the version asked for and the file asking. */
export function parseSdkNotFound(output: string): SdkPinFailure | null {
  const requested = /^\s*Requested SDK version:\s*(\S+)\s*$/m.exec(output)?.[1];
  const globalJson = /^\s*global\.json file:\s*(.+?)\s*$/m.exec(output)?.[1];
  return requested && globalJson ? { requested, globalJson } : null;
}

/** `dotnet --list-sdks` lines (`10.0.401 [/usr/share/dotnet/sdk]`) → versions. */
export function parseSdkList(output: string): string[] {
  return [...output.matchAll(/^(\d+\.\d+\.\d+\S*)\s+\[/gm)].map((match) => match[1] ?? '');
}

export function sdkPinMessage(failure: SdkPinFailure, installed: readonly string[]): string {
  const have = installed.length > 0 ? installed.join(', ') : 'none';
  return (
    `${failure.globalJson} pins .NET SDK ${failure.requested}, which is not installed (installed SDKs: ${have}). ` +
    `Install SDK ${failure.requested}, or change "sdk.version" (or "rollForward") in that global.json to match an installed SDK.`
  );
}

/**
 * Runs `dotnet --version` in the workspace and returns the SDK version it selects. Throws a
 * ConfigurationError (CLI exit 2) when dotnet is missing, when global.json pins an SDK that is not
 * installed (naming both versions), or when dotnet fails otherwise.
 */
export async function checkDotnetSdk(runner: ProcessRunner, workspaceRoot: string): Promise<string> {
  let result;
  try {
    result = await runner.run('dotnet', ['--version'], { cwd: workspaceRoot, timeoutMs: CHECK_TIMEOUT_MS });
  } catch (error) {
    throw new ConfigurationError(
      `dotnet was not found on PATH (${errorMessage(error)}). Install the .NET SDK (https://dot.net) or put it on PATH.`,
    );
  }
  if (result.exitCode === 0) return result.stdout.trim();
  const output = `${result.stderr}\n${result.stdout}`;
  const pin = parseSdkNotFound(output);
  if (pin) {
    // `--list-sdks` is answered by the muxer itself, whatever global.json says.
    const listed = await runner.run('dotnet', ['--list-sdks'], { cwd: workspaceRoot, timeoutMs: CHECK_TIMEOUT_MS }).catch(() => null);
    const installed = parseSdkList(listed?.stdout ?? '');
    throw new ConfigurationError(sdkPinMessage(pin, installed), { requested: pin.requested, globalJson: pin.globalJson, installed });
  }
  const said = output.trim().split('\n').slice(0, 5).join('\n');
  throw new ConfigurationError(`\`dotnet --version\` failed in ${workspaceRoot}${said ? `:\n${said}` : ''}`);
}
