// `dotnet --version` costs about a second at the start of every run, and its answer only changes when
// the dotnet install, the installed SDKs or the global.json that pins one change. So the answer is kept
// in the user's cache, keyed by exactly those: the resolved dotnet executable (path, size, mtime), the
// mtime of its sdk/ folder (installing or removing an SDK changes it), the global.json dotnet would find
// from the workspace (its content, and its place when it lists SDK paths) and the variables that steer SDK selection. A failed check is
// never kept: the person sees the real error every time until it is fixed.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../platform/command-path';
import { userCacheDir } from '../platform/user-cache';

export { userCacheDir } from '../platform/user-cache';

const CACHE_FILE = 'dotnet-sdk.json';
const MAX_ENTRIES = 32;
const SELECTION_VARIABLES = [
  'DOTNET_ROOT',
  'DOTNET_ROLL_FORWARD',
  'DOTNET_MULTILEVEL_LOOKUP',
  'DOTNET_MSBUILD_SDK_RESOLVER_SDKS_DIR',
  'DOTNET_MSBUILD_SDK_RESOLVER_CLI_DIR',
];

type Env = Readonly<Record<string, string | undefined>>;

interface CacheEntry {
  version: string;
  checkedAt: string;
}

/** The global.json dotnet reads: the first one in the workspace folder or above it. */
export async function globalJsonFrom(dir: string): Promise<string | null> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const candidate = path.join(current, 'global.json');
    if ((await fs.stat(candidate).catch(() => null))?.isFile()) return candidate;
    if (path.dirname(current) === current) return null;
  }
}

/**
 * What `dotnet --version` in `workspaceRoot` depends on, as the cache entry's key; null when dotnet is
 * not on PATH (no caching). Kept whole, not hashed: a few hundred characters.
 */
export async function sdkCacheKey(workspaceRoot: string, env: Env = process.env): Promise<string | null> {
  const found = findOnPath('dotnet', { env });
  if (!found) return null;
  const dotnet = await fs.realpath(found);
  const binary = await fs.stat(dotnet);
  const sdks = await fs.stat(path.join(path.dirname(dotnet), 'sdk')).catch(() => null);
  const globalJson = await globalJsonFrom(workspaceRoot);
  const pin = globalJson ? await fs.readFile(globalJson, 'utf8').catch(() => '?') : '';
  // Where the global.json sits matters only to the SDK paths it may list (relative to itself); otherwise
  // two workspaces with the same pin share one answer.
  const where = globalJson && /"paths"\s*:/.test(pin) ? globalJson : '';
  const parts = [
    dotnet,
    binary.size,
    binary.mtimeMs,
    sdks?.mtimeMs ?? 0,
    where,
    pin,
    ...SELECTION_VARIABLES.map((name) => `${name}=${env[name] ?? ''}`),
  ];
  return JSON.stringify(parts);
}

async function readCache(file: string): Promise<Record<string, CacheEntry>> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, CacheEntry>) : {};
  } catch {
    return {};
  }
}

async function writeCache(file: string, entries: Record<string, CacheEntry>): Promise<void> {
  const kept = Object.entries(entries)
    .sort((a, b) => b[1].checkedAt.localeCompare(a[1].checkedAt))
    .slice(0, MAX_ENTRIES);
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Written aside and renamed: two runs starting at once never read half a file.
  const aside = `${file}.${process.pid}.tmp`;
  await fs.writeFile(aside, JSON.stringify(Object.fromEntries(kept)));
  await fs.rename(aside, file);
}

export interface SdkCacheOptions {
  cacheDir?: string;
  env?: Env;
  now?: () => Date;
}

/** The SDK version the cache holds for the workspace when nothing it depends on changed; null otherwise (nothing is run). */
export async function knownSdkVersion(workspaceRoot: string, options: SdkCacheOptions = {}): Promise<string | null> {
  const env = options.env ?? process.env;
  if (env.IRONBEES_SDK_CACHE === '0') return null;
  const key = await sdkCacheKey(workspaceRoot, env).catch(() => null);
  if (key === null) return null;
  const known = (await readCache(path.join(options.cacheDir ?? userCacheDir(env), CACHE_FILE)))[key];
  return known && typeof known.version === 'string' && known.version !== '' ? known.version : null;
}

/** The SDK version from the cache when nothing it depends on changed; otherwise `check()`, kept when it succeeds. */
export async function cachedSdkVersion(
  workspaceRoot: string,
  check: () => Promise<string>,
  options: SdkCacheOptions = {},
): Promise<string> {
  const env = options.env ?? process.env;
  if (env.IRONBEES_SDK_CACHE === '0') return check();
  const key = await sdkCacheKey(workspaceRoot, env).catch(() => null);
  if (key === null) return check();
  const file = path.join(options.cacheDir ?? userCacheDir(env), CACHE_FILE);
  const entries = await readCache(file);
  const known = entries[key];
  if (known && typeof known.version === 'string' && known.version !== '') return known.version;
  const version = await check();
  entries[key] = { version, checkedAt: (options.now?.() ?? new Date()).toISOString() };
  await writeCache(file, entries).catch(() => undefined);
  return version;
}
