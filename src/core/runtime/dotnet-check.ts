// The one check that the .NET SDK is there, before a run starts (a missing SDK, or a global.json that
// pins one that is not installed, is a configuration error: exit 2 in the CLI, a clear message in the
// editor, with nothing changed). The SDK logic itself is the dotnet layer's (sdk-check.ts); its answer
// is kept in the user's cache while nothing it depends on changes (sdk-cache.ts).

import type { ProcessRunner } from '../host';
import { checkDotnetSdk } from '../dotnet/sdk-check';
import { cachedSdkVersion } from '../dotnet/sdk-cache';

/** `dotnet --version` in the workspace: the version, or a ConfigurationError saying what to install or fix. */
export function checkDotnet(runner: ProcessRunner, workspaceRoot: string): Promise<string> {
  return cachedSdkVersion(workspaceRoot, () => checkDotnetSdk(runner, workspaceRoot));
}
