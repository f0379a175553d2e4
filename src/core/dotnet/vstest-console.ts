// `dotnet vstest <dll>` is the dotnet CLI starting a second process, `dotnet exec <sdk>/vstest.console.dll`,
// and waiting for it: one whole .NET process start (the CLI's own) for nothing but forwarding. A test run
// starts vstest.console.dll itself when it can tell which SDK `dotnet vstest` would have used: the one the
// SDK check of this workspace found (sdk-cache.ts), or the only SDK installed when no global.json can pick
// another. Any doubt (a global.json and no cached answer, several SDKs, no vstest.console.dll): null, and the
// run goes through `dotnet vstest` as before. IRONBEES_VSTEST_CONSOLE=0 always goes through it.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../platform/command-path';
import { globalJsonFrom, knownSdkVersion } from './sdk-cache';
import type { SdkCacheOptions } from './sdk-cache';

export interface VstestConsole {
  /** The SDK's vstest.console.dll, for `dotnet exec`. */
  dll: string;
  /** What the CLI sets for it: where the test host finds dotnet, and for which architecture. */
  env: Record<string, string>;
}

const ARCHITECTURES: Readonly<Record<string, string>> = { x64: 'X64', arm64: 'ARM64', ia32: 'X86', arm: 'ARM' };
const VSTEST_CONSOLE = 'vstest.console.dll';
const resolved = new Map<string, Promise<VstestConsole | null>>();

/** Memoised per folder and PATH for the process: SDKs are not installed while a run validates. */
export function vstestConsoleFor(cwd: string, options: SdkCacheOptions = {}): Promise<VstestConsole | null> {
  const env = options.env ?? process.env;
  if (env.IRONBEES_VSTEST_CONSOLE === '0' || process.platform === 'win32') return Promise.resolve(null);
  const key = `${path.resolve(cwd)}\n${env.PATH ?? ''}\n${options.cacheDir ?? ''}`;
  let found = resolved.get(key);
  if (!found) {
    found = resolve(cwd, options).catch(() => null);
    resolved.set(key, found);
  }
  return found;
}

async function resolve(cwd: string, options: SdkCacheOptions): Promise<VstestConsole | null> {
  const env = options.env ?? process.env;
  const dotnet = findOnPath('dotnet', { env });
  const architecture = ARCHITECTURES[process.arch];
  if (!dotnet || !architecture) return null;
  const root = path.dirname(await fs.realpath(dotnet));
  const version = (await knownSdkVersion(cwd, options)) ?? (await onlySdk(root, cwd));
  if (!version || version.includes('/') || version.includes('\\')) return null;
  const dll = path.join(root, 'sdk', version, VSTEST_CONSOLE);
  if (!(await fs.stat(dll).catch(() => null))?.isFile()) return null;
  return { dll, env: { VSTEST_DOTNET_ROOT_PATH: root, VSTEST_DOTNET_ROOT_ARCHITECTURE: architecture } };
}

/** The one SDK installed beside the muxer, when no global.json from `cwd` up could choose (or refuse) it. */
async function onlySdk(root: string, cwd: string): Promise<string | null> {
  if (await globalJsonFrom(cwd)) return null;
  const entries = await fs.readdir(path.join(root, 'sdk'), { withFileTypes: true });
  const sdks = entries.filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+/.test(entry.name));
  return sdks.length === 1 ? (sdks[0]?.name ?? null) : null;
}

/** Forgets what was resolved (tests that change PATH or the cache). */
export function resetVstestConsoleForTests(): void {
  resolved.clear();
}
